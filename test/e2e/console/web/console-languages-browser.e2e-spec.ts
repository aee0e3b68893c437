import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { createUser } from '../../../factories';
import { relate } from '../../../factories/app-users';
import { insertEvent } from '../../../factories/events';
import { settled } from '../../../support/console-browser';
import { RAW_KEY } from '../../../support/languages';
import { PASSWORD } from '../../../support/oauth';
import { useConsoleBrowserBed } from '../../../support/console-browser-bed';

// The console in Chinese, in Chromium whose language is zh-CN (Accept-Language and
// navigator.language): the pages, and the words the scripts write from the catalog the page
// hands them, with their dates and figures written the Chinese way (docs/languages.md).
// CONSOLE_SCREENSHOTS=1 also writes docs/languages/console-zh-CN.png.
const SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS === '1';
const SCREENSHOT_DIR = join(__dirname, '..', '..', '..', '..', 'docs', 'languages');

/** A date and time as Chinese writes it (Intl, zh-CN, medium date, short time). */
const CHINESE_DATE = /^\d{4}年\d{1,2}月\d{1,2}日 \d{2}:\d{2}$/;

/**
 * English words of the console that must not show on a Chinese page (the client authentication
 * methods' names, `secret` and `none`, are codes and stay).
 */
const ENGLISH = [
  'Loading',
  'Applications',
  'Account',
  'Sign out',
  'Overview',
  'Users',
  'Events',
  'Settings',
  'API access',
  'Members',
  'Audit log',
  'Name',
  'Status',
  'Created',
  'Actions',
  'Enabled',
  'Disabled',
  'never',
  'Search',
  'Any group',
  'Apply',
  'Previous',
  'Next',
  'Page',
  'Event type',
  'All types',
  'Save settings',
  'Client credentials',
  'Reset client secret',
  'Delete application',
  'API keys',
  'Create key',
  'Active',
  'Rotate',
  'Revoke',
  'Delete',
  'Copy',
  'Done, hide it',
  'Webhook endpoints',
  'Add endpoint',
  'No endpoints yet',
  'Console access',
  'Give access',
  'Owner',
  'Authorizations',
  'Details',
  'Load older',
  'Confirm',
  'Cancel',
];

describe('Console in Chromium, in Chinese', () => {
  const bed = useConsoleBrowserBed();
  beforeAll(() => {
    if (SCREENSHOTS) mkdirSync(SCREENSHOT_DIR, { recursive: true });
  });

  /** The visible text of the page: Chinese only, no catalog key, none of the English words. */
  async function expectChinese(page: Page): Promise<void> {
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');
    const text = await page.locator('body').innerText();
    expect(RAW_KEY.exec(text)?.[0]).toBeUndefined();
    expect(ENGLISH.filter((word) => new RegExp(`\\b${word}\\b`).test(text))).toEqual([]);
  }

  it('signs in with a passkey, creates an API key confirmed with it, every tab in Chinese', async () => {
    await createUser(bed.t.app, {
      username: 'alice',
      email: 'alice@example.org',
      password: PASSWORD,
    });
    const { context, page, problems } = await bed.openTab({ locale: 'zh-CN' });

    // Password sign-in, then a first passkey on the account page.
    await page.goto(`${bed.base}/console`);
    await page.locator('#signin').waitFor();
    await expectChinese(page);
    await page.getByLabel('用户名或邮箱').fill('alice');
    await page.getByLabel('密码').fill(PASSWORD);
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.locator('#apps').waitFor();
    await page.goto(`${bed.base}/console/account`);
    await page.locator('#account').waitFor();
    await page.getByLabel('名称').fill('工作电脑');
    await page.getByRole('button', { name: '添加通行密钥' }).click();
    await settled(page, page.locator('#passkeys-table tbody tr', { hasText: '工作电脑' }));
    await expect(page.locator('#passkeys-status').textContent()).resolves.toBe(
      '通行密钥“工作电脑”已添加。',
    );
    await expectChinese(page);

    // Signed out, back in with the passkey.
    await page.getByRole('button', { name: '退出登录' }).click();
    await page.locator('#signin').waitFor();
    await page.getByRole('button', { name: '使用通行密钥登录' }).click();
    await page.locator('#apps').waitFor();
    await settled(page, page.locator('#apps-table tbody tr.empty', { hasText: '还没有应用' }));

    // An application: the notice, the secret shown once, the list's row.
    await page.getByRole('button', { name: '创建应用' }).click();
    await page.locator('#app-name').fill('客户门户');
    await page.getByLabel('重定向 URI').fill('https://portal.example.com/callback');
    await page.locator('#create-app-form button[type="submit"]').click();
    const link = page.locator('#apps-table a', { hasText: '客户门户' });
    await settled(page, link);
    await expect(page.locator('#apps-status').textContent()).resolves.toBe('已创建客户门户。');
    await expect(page.locator('#app-secret strong').textContent()).resolves.toBe(
      '新应用的客户端密钥',
    );
    const appRow = page.locator('#apps-table tbody tr', { hasText: '客户门户' });
    await expect(appRow.locator('td').nth(1).textContent()).resolves.toBe('所有者');
    await expect(appRow.locator('.badge').textContent()).resolves.toBe('已启用');
    await expect(appRow.locator('time').textContent()).resolves.toMatch(CHINESE_DATE);
    await expectChinese(page);
    const appId = Number((await link.getAttribute('href'))?.split('/').pop());
    await seedActivity(appId);

    // Overview: the figures and the chart's dates and numbers in Chinese.
    await link.click();
    await page.locator('#auth-chart').waitFor();
    expect(await page.title()).toBe('客户门户 · 控制台');
    await expect(page.locator('[data-stat="totalAuths"]').textContent()).resolves.toBe('1,200');
    await expect(page.locator('#chart-svg-title').textContent()).resolves.toBe('每日授权次数');
    await expect(page.locator('#chart-svg-desc').textContent()).resolves.toMatch(
      /^\d{4}年\d{1,2}月\d{1,2}日 至 \d{4}年\d{1,2}月\d{1,2}日 共 3 次授权；最多的一天 3 次。$/,
    );
    await expect(page.locator('#auth-chart rect.bar title').last().textContent()).resolves.toMatch(
      /^\d{4}年\d{1,2}月\d{1,2}日：3$/,
    );
    const axis = await page.locator('#auth-chart text.axis').allTextContents();
    expect(axis.slice(0, 4)).toEqual(['0', '1', '2', '3']);
    expect(axis.filter((label) => /^\d{1,2}\/\d{1,2}$/.test(label)).length).toBe(6);
    await expectChinese(page);

    // API keys: create one, confirmed with the passkey in the dialog.
    await page.getByRole('link', { name: 'API 访问' }).click();
    await page.locator('#create-key-open').click();
    await page.locator('#key-name').fill('production');
    await page.getByLabel('user:read').check();
    await page.getByLabel('stats:read').check();
    await page.locator('#create-key button[type="submit"]').click();
    await page.locator('#confirm-dialog').waitFor();
    await expect(page.locator('#confirm-title').textContent()).resolves.toBe('用通行密钥确认');
    await expect(page.locator('#confirm-text').textContent()).resolves.toBe(
      '创建 API 密钥“production”，权限范围：user:read和stats:read。',
    );
    await expect(page.locator('#confirm-go').textContent()).resolves.toBe('用通行密钥确认');
    await expectChinese(page);
    await page.locator('#confirm-go').click();
    await settled(page, page.locator('#new-key'));
    await expect(page.locator('#keys-status').textContent()).resolves.toBe(
      '密钥“production”已创建。',
    );
    const secret = page.locator('#new-key');
    await expect(secret.locator('strong').textContent()).resolves.toBe('你的新 API 密钥');
    await expect(secret.locator('.hint').textContent()).resolves.toContain('不会再次显示');
    await expect(secret.getByRole('button', { name: '复制' }).count()).resolves.toBe(1);
    await expect(secret.getByRole('button', { name: '已保存，隐藏' }).count()).resolves.toBe(1);
    expect(await page.locator('#keys-table thead th').allTextContents()).toEqual([
      '名称和前缀',
      '权限范围',
      '状态',
      '最近使用',
      '创建时间',
      '操作',
    ]);
    const keyRow = page.locator('#keys-table tbody tr[data-key-id]');
    await expect(keyRow.locator('.status').textContent()).resolves.toBe('有效');
    await expect(keyRow.locator('td').nth(3).textContent()).resolves.toBe('从未');
    await expect(keyRow.locator('td').nth(4).textContent()).resolves.toMatch(CHINESE_DATE);
    expect(await keyRow.locator('button').allTextContents()).toEqual(['轮换', '撤销', '删除']);
    await expectChinese(page);
    if (SCREENSHOTS) {
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'console-zh-CN.png') });
    }

    // Users: the pager's sentence, then every other tab, each once its data is in.
    await page.getByRole('link', { name: '用户', exact: true }).click();
    await settled(page, page.locator('#users-table tbody tr', { hasText: 'bob@example.org' }));
    await expect(page.locator('#users-page').textContent()).resolves.toMatch(
      /^第 1 页，共 1 页 · \d 个用户$/,
    );
    await expectChinese(page);
    const tabs: [string, string, string][] = [
      ['事件', '#events-table tbody tr', 'authorization_granted'],
      ['设置', '#settings-status + form button[type="submit"]', '保存设置'],
      ['Webhook', '#webhooks-table tbody tr.empty', '还没有端点。'],
      ['成员', '#members-table tbody tr', '所有者'],
      ['审计日志', '#audit-table tbody tr', 'key.create'],
      ['概览', '#app-details', '客户端认证方式'],
    ];
    for (const [name, selector, text] of tabs) {
      await page.getByRole('link', { name, exact: true }).click();
      await settled(page, page.locator(selector, { hasText: text }).first());
      await expectChinese(page);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  /**
   * A user of the application with 1,200 authorizations (a figure Intl groups), three of them
   * today, for the Overview and Users tabs.
   */
  async function seedActivity(appId: number): Promise<void> {
    const bob = await createUser(bed.t.app, { username: 'bob', email: 'bob@example.org' });
    const at = bed.t.clock.now();
    await relate(bed.t, appId, bob.id, { authCount: 1200, firstAuthAt: at, lastAuthAt: at });
    for (let n = 0; n < 3; n += 1) {
      await insertEvent(bed.t.dataSource, appId, 'authorization_granted', at.toISOString(), bob.id);
    }
  }
});
