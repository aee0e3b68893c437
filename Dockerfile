# syntax=docker/dockerfile:1
# Build stage: install everything, compile TypeScript, then keep production dependencies only.
FROM node:26-slim AS build
WORKDIR /app
ENV SCARF_ANALYTICS=false
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev

# Runtime stage: compiled code and production dependencies, run as the unprivileged `node` user.
FROM node:26-slim
WORKDIR /app
ENV NODE_ENV=production \
    PORT=3000 \
    MIGRATIONS_RUN=false
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Migrations first (one-shot, fails the start if they fail), then the service.
CMD ["sh", "-c", "node dist/cli/main.js migrate --json && exec node dist/main.js"]
