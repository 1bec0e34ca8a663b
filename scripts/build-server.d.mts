/** Writes the server bundle (apps/server/src/main.ts and the contract in one ES module) to `outfile`. */
export function buildServer(outfile: string): Promise<void>;
