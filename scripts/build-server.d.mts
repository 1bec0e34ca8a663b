/** A bundle npm run build writes: the server (apps/server/src/main.ts) or the admin commands (src/cli/admin.ts). */
export type BundleName = 'main' | 'admin' | 'initial-database';

/** Where npm run build writes the bundle `name` (apps/server/dist/<name>.mjs). */
export function bundlePath(name: BundleName): string;

/** Writes the bundle of `entry` (its sources and the contract in one ES module) to `outfile`. */
export function buildServer(outfile: string, entry?: BundleName): Promise<void>;

/** The bundle `name` as npm start runs it: rebuilt first when missing or stale and esbuild is installed. */
export function currentBundle(name: BundleName): Promise<string>;
