import { baseUsername, candidateUsername } from './usernames';

describe('usernames', () => {
  describe('baseUsername', () => {
    it('keeps a username that already follows the local rule', () => {
      expect(baseUsername('octocat', 'github')).toBe('octocat');
    });

    it('drops characters outside the rule and a leading punctuation', () => {
      expect(baseUsername('_Jörg Müller!', 'google')).toBe('JorgMuller');
    });

    it('falls back to the provider id when too little is left', () => {
      expect(baseUsername('微信用户', 'wechat')).toBe('wechat-user');
      expect(baseUsername(null, 'qq')).toBe('qq-user');
      expect(baseUsername('a', 'forum')).toBe('a-forum-user');
    });

    it('cuts to 64 characters', () => {
      expect(baseUsername('x'.repeat(100), 'github')).toHaveLength(64);
    });
  });

  describe('candidateUsername', () => {
    it('numbers the candidates after the base, within 64 characters', () => {
      expect(candidateUsername('octocat', 0)).toBe('octocat');
      expect(candidateUsername('octocat', 1)).toBe('octocat-2');
      expect(candidateUsername('y'.repeat(64), 9)).toBe(`${'y'.repeat(61)}-10`);
    });
  });
});
