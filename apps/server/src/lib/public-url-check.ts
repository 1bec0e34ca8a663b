/**
 * Every address the app shows or mails is built from PUBLIC_URL alone (issue 34). These say so in
 * the log: once at start, and once for each other origin a browser has the app open at, since
 * links in mail and on its screens then point where that browser is not.
 */

/** The origin of a URL, or null when it is not one. */
function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** The start-up line naming the base of every link, with what to do when PUBLIC_URL was not set. */
export function publicUrlStartupLine(publicUrl: string, setInEnvironment: boolean): string {
  return setInEnvironment
    ? `Links in mail and on screens use PUBLIC_URL ${publicUrl}`
    : `PUBLIC_URL is not set: links in mail and on screens use ${publicUrl}; set PUBLIC_URL to the address people reach Sendwell at`;
}

/**
 * A check to call with the origin a browser has the app open at: it warns (once per origin) when
 * that origin is not PUBLIC_URL's.
 */
export function originMismatchWarner(publicUrl: string, warn: (message: string) => void): (pageOrigin: string) => void {
  const expected = originOf(publicUrl);
  const warned = new Set<string>();
  return (pageOrigin) => {
    const seen = originOf(pageOrigin);
    // A bounded set: a flood of Host headers cannot grow it without end.
    if (!seen || seen === expected || warned.has(seen) || warned.size >= 20) return;
    warned.add(seen);
    warn(
      `The app is open at ${seen}, but PUBLIC_URL is ${publicUrl}: every link in mail and on screens uses PUBLIC_URL. Set PUBLIC_URL to the address people reach Sendwell at.`,
    );
  };
}
