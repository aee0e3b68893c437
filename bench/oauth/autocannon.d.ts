// The part of autocannon 8's programmatic API the load generator uses (the package has no types).
declare module 'autocannon' {
  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
    }
    interface RequestOptions {
      method?: string;
      setupRequest?: (request: Request, context: object) => Request | false;
      onResponse?: (status: number, body: string, context: object) => void;
    }
    interface Options {
      /** Several URLs: connection i goes to url[i % url.length]. */
      url: string | string[];
      connections?: number;
      pipelining?: number;
      amount?: number;
      timeout?: number;
      requests?: RequestOptions[];
    }
    interface Result {
      errors: number;
      timeouts: number;
      non2xx: number;
    }
    interface Instance {
      on(event: 'error', listener: (error: Error) => void): this;
      /** Every answer, with its time from the request's write, in (fractional) milliseconds. */
      on(
        event: 'response',
        listener: (client: object, status: number, bytes: number, responseTimeMs: number) => void,
      ): this;
    }
  }
  function autocannon(
    options: autocannon.Options,
    done: (error: Error | null, result: autocannon.Result) => void,
  ): autocannon.Instance;
  export = autocannon;
}
