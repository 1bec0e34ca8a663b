// Classifying bounce reports, as the inbound pipeline does for every message to a bounce address:
// the whole corpus (DSNs, ARF complaints, auto-replies, plain notices of 80 mail systems) read
// from memory over and over on one core. Target: at least 2,000 messages/s. No database or network.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { classify } from '../apps/server/src/modules/bounces/index.ts';

const TARGET_PER_SECOND = 2_000;
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 50_000);
const corpus = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/server/test/fixtures/bounces');
const manifest = JSON.parse(readFileSync(path.join(corpus, 'manifest.json'), 'utf8')) as { file: string }[];
const messages = manifest.map((m) => readFileSync(path.join(corpus, m.file)));
// A bounce that returns a whole message with a 200 KB attachment: the classifier reads only its head.
const withAttachment = Buffer.concat([messages[0] ?? Buffer.alloc(0), Buffer.alloc(200 * 1024, 'QUJDREVG\r\n')]);
messages.push(withAttachment);

// Warm up the JIT and the regular expressions.
for (const message of messages) classify(message);

let bounces = 0;
const started = performance.now();
for (let i = 0; i < MESSAGES; i++) {
  if (classify(messages[i % messages.length] ?? withAttachment).kind === 'bounce') bounces++;
}
const seconds = (performance.now() - started) / 1000;
const perSecond = MESSAGES / seconds;
console.log(
  `classified ${MESSAGES} messages (${messages.length} distinct, ${bounces} bounces) in ${seconds.toFixed(2)} s: ` +
    `${Math.round(perSecond).toLocaleString('en')} messages/s on one core (target ${TARGET_PER_SECOND.toLocaleString('en')})`,
);
if (perSecond < TARGET_PER_SECOND) {
  console.error('below target');
  process.exit(1);
}
