import { parseArgs } from "jsr:@std/cli@1/parse-args";
import { loadSiteConfig } from "../../src/config/load.ts";

const CF_API = "https://api.cloudflare.com/client/v4";

/**
 * edgewise purge [--site edgewise.yaml] [--path /events/] [--all] [-v]
 */
export async function purgeCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, {
    boolean: ["verbose", "all"],
    string: ["site", "path"],
    alias: { v: "verbose" },
  });

  const site = await loadSiteConfig(args.site ?? "edgewise.yaml");
  const token = Deno.env.get("EDGEWISE_TOKEN");
  if (!token) {
    console.error("EDGEWISE_TOKEN is not set");
    return 2;
  }

  const target = args.all
    ? `${site.publicHost}/`
    : `${site.publicHost}${args.path ?? "/"}`;

  const url = `${CF_API}/zones/${site.provider.zoneId}/purge_cache`;
  const headers = {
    Authorization: `Bearer ${token}`,
    "Content-Type": "application/json",
  };

  if (args.verbose) console.log("POST", url, headers);

  const res = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({ prefixes: [target] }),
  });

  const payload = await res.json();
  if (!res.ok || !payload.success) {
    console.error(`purge failed (${res.status}):`, payload.errors ?? payload);
    return 1;
  }

  console.log(`purged everything under ${target}`);
  return 0;
}
