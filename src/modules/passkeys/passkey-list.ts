import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { PasskeyCredential } from './passkey-credential.entity';
import { toPasskeyView, type PasskeyView } from './passkey-view';

/**
 * A user's passkeys as people see them, oldest first: the one listing the console's account
 * API and the account page both show.
 */
@Injectable()
export class PasskeyList {
  constructor(
    @InjectRepository(PasskeyCredential)
    private readonly credentials: Repository<PasskeyCredential>,
  ) {}

  async of(userId: string): Promise<PasskeyView[]> {
    const rows = await this.credentials.find({ where: { userId }, order: { createdAt: 'ASC' } });
    return rows.map(toPasskeyView);
  }
}
