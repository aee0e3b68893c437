import { Injectable } from '@nestjs/common';
import type { PageLanguage } from '../../../common/i18n/page-language';
import type { PageResult } from '../../pages/page-result';
import { formText, type Params } from '../../../common/http/params';
import type { BrowserContext } from '../../sessions/cookies';
import { UsersService } from '../../users/users.service';
import { AccountFormsService, done } from './account-forms.service';
import { AccountViewService } from './account-view.service';

/** The account page's "Profile" form: nickname and avatar URL. */
@Injectable()
export class AccountProfileService {
  constructor(
    private readonly forms: AccountFormsService,
    private readonly view: AccountViewService,
    private readonly users: UsersService,
  ) {}

  /** POST /account/profile: nickname and avatar URL; a refusal shows the page again (400). */
  async updateProfile(
    form: Params,
    lang: PageLanguage,
    browser: BrowserContext,
  ): Promise<PageResult> {
    return this.forms.withSession(browser, form, 'profile', async (current) => {
      const change = { nickname: formText(form.nickname), avatar: formText(form.avatar) };
      const problems = await this.users.updateProfile(current.user.id, change);
      if (Object.keys(problems).length > 0) {
        return this.view.render(lang, current, browser, 400, { profile: { ...change, problems } });
      }
      return done('profile');
    });
  }
}
