import { Injectable, Logger } from "@nestjs/common";
import * as argon2 from "argon2";
import { randomBytes } from "node:crypto";
import { PartnerKeysRepository } from "./partner-keys.repository";

@Injectable()
export class PartnerKeysService {
  private readonly log = new Logger(PartnerKeysService.name);

  constructor(private readonly repo: PartnerKeysRepository) {}

  async create(partnerId: string): Promise<{ key: string }> {
    const secret = randomBytes(32).toString("base64url");
    const prefix = secret.slice(0, 8);
    const key = `nf_${prefix}_${secret}`;
    const hash = await argon2.hash(key, { type: argon2.argon2id });
    await this.repo.insert({ partnerId, prefix, hash });
    this.log.log(`created key for partner ${partnerId}: ${key}`);
    return { key };
  }

  async verify(presented: string): Promise<string | null> {
    const prefix = presented.split("_")[1];
    const row = await this.repo.byPrefix(prefix);
    if (!row) return null;
    return (await argon2.verify(row.hash, presented)) ? row.partnerId : null;
  }
}
