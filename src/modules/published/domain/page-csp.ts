/**
 * The policy of one page: the pages' own, widened for what the page holds from integrations:
 * `frame-src` for its blocks' webframes, and for the site's scripts their origins and the sources
 * each integration declared (already reduced to https hosts). Directives the base lacks are added;
 * nothing is removed.
 */
export function pageCsp(base: string, extra: { frameHosts?: string[]; scriptPolicies?: string[] }): string {
  const directives = new Map<string, string[]>();
  for (const part of base.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name, sources);
  }
  const add = (name: string, sources: string[]) => {
    const current = directives.get(name) ?? [];
    directives.set(name, [...new Set([...current.filter((s) => s !== "'none'"), ...sources])]);
  };
  if (extra.frameHosts?.length) add('frame-src', extra.frameHosts.map((host) => `https://${host}`));
  for (const policy of extra.scriptPolicies ?? []) {
    for (const part of policy.split(';')) {
      const [name, ...sources] = part.trim().split(/\s+/);
      if (name && sources.length) add(name, sources);
    }
  }
  return [...directives].map(([name, sources]) => [name, ...sources].join(' ')).join('; ');
}
