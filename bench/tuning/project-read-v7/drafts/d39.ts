import { delay } from "jsr:@std/async@1/delay";
import type { CompiledRule, ProviderClient, PurgeResult } from "./types.ts";
import { redactHeaders } from "../util/redact.ts";

const API_BASE = "https://api.cloudflare.com/client/v4";

// Control-plane calls only. The origin timeout/retry policy is compiled into the rules.
const API_TIMEOUT_MS = 30_000;
const API_MAX_ATTEMPTS = 3;
const TAGS_PER_PURGE = 30;

export class CloudflareClient implements ProviderClient {
  readonly name = "cloudflare";

  constructor(
    private readonly zoneId: string,
    private readonly token: string,
    private readonly debug: (line: string) => void = () => {},
  ) {}

  /** Cloudflare calls surrogate keys "cache tags". */
  async purgeByKey(keys: string[]): Promise<PurgeResult> {
    let purged = 0;
    for (let i = 0; i < keys.length; i += TAGS_PER_PURGE) {
      const batch = keys.slice(i, i + TAGS_PER_PURGE);
      await this.request("POST", `/zones/${this.zoneId}/purge_cache`, { tags: batch });
      purged += batch.length;
    }
    return { purged };
  }

  async deployRules(rules: CompiledRule[]): Promise<void> {
    await this.request(
      "PUT",
      `/zones/${this.zoneId}/rulesets/phases/http_request_cache_settings/entrypoint`,
      { rules: rules.map(toCacheRule) },
    );
  }

  private async request(method: string, path: string, body?: unknown): Promise<unknown> {
    const headers = { Authorization: `Bearer ${this.token}`, "Content-Type": "application/json" };

    for (let attempt = 1; ; attempt++) {
      this.debug(`${method} ${path} ${JSON.stringify(redactHeaders(headers))}`);
      const res = await fetch(API_BASE + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(API_TIMEOUT_MS),
      });

      if (res.ok) return await res.json();

      if (res.status >= 500 && attempt < API_MAX_ATTEMPTS) {
        await res.body?.cancel();
        await delay(500 * 2 ** attempt);
        continue;
      }
      throw new Error(`cloudflare ${method} ${path} failed: ${res.status} ${await res.text()}`);
    }
  }
}

function toCacheRule(rule: CompiledRule) {
  return {
    description: rule.name,
    expression: rule.expression,
    action: "set_cache_settings",
    action_parameters: rule.bypass
      ? { cache: false }
      : { cache: true, edge_ttl: { mode: "override_origin", default: rule.ttlSeconds } },
  };
}
