import { crypto } from "jsr:@std/crypto@1";
import { encodeHex } from "jsr:@std/encoding@1/hex";
import type { RouteConfig, SiteConfig } from "../config/types.ts";
import type { CompiledRule } from "../provider/types.ts";

const DEFAULT_HTML_TTL_SECONDS = 60;
const DEFAULT_ORIGIN = { timeoutMs: 10_000, retries: 3 };

async function shortHash(input: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(input));
  return encodeHex(digest).slice(0, 8);
}

export async function ruleName(site: string, route: RouteConfig): Promise<string> {
  return `EW_${site.toUpperCase()}_${await shortHash(route.match)}`;
}

function matchExpression(host: string, pattern: string): string {
  if (pattern.endsWith("/*")) {
    return `(http.host eq "${host}" and starts_with(http.request.uri.path, "${pattern.slice(0, -1)}"))`;
  }
  return `(http.host eq "${host}" and http.request.uri.path eq "${pattern}")`;
}

export async function compileRules(config: SiteConfig): Promise<CompiledRule[]> {
  const origin = {
    host: config.origin.host,
    timeoutMs: config.origin.timeoutMs ?? DEFAULT_ORIGIN.timeoutMs,
    retries: config.origin.retries ?? DEFAULT_ORIGIN.retries,
  };

  const rules: CompiledRule[] = [];
  for (const route of config.routes) {
    rules.push({
      name: await ruleName(config.site, route),
      expression: matchExpression(config.publicHost, route.match),
      bypass: route.bypass,
      ttlSeconds: route.cacheTtl ?? config.assetTtl,
      surrogateKeys: route.surrogateKeys,
      origin,
    });
  }

  // catch-all for HTML documents
  rules.push({
    name: await ruleName(config.site, { match: "*.html", bypass: false, surrogateKeys: ["html"] }),
    expression: `(http.host eq "${config.publicHost}" and http.request.uri.path.extension eq "html")`,
    bypass: false,
    ttlSeconds: config.htmlTtl ?? DEFAULT_HTML_TTL_SECONDS,
    surrogateKeys: ["html"],
    origin,
  });

  return rules;
}
