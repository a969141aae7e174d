// Summary of a results.jsonl written by run.sh: per configuration, each run's moves/s, server
// CPU per move, the load generator's CPU and the rest of the machine; medians; each Referee
// configuration against boardgame.io (same run). The last line gives the ratios of moves/s:
//   peer ratios: new-flow-redis R new-flow-memory R documented-flow-redis R
// (n/a for a configuration that made no move, e.g. a server without include=legal_moves).
'use strict';
const fs = require('fs');
const rows = fs.readFileSync(process.argv[2], 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const groups = new Map();
for (const r of rows) { if (!groups.has(r.label)) groups.set(r.label, []); groups.get(r.label).push(r); }
const fmt = (x, d = 0) => (!Number.isFinite(Number(x)) ? '-' : Number(x).toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }));
const med = {};
console.log('| configuration | moves/s per run | median moves/s | requests/move | server CPU us/move per run | median us/move | redis-server CPU us/move | load gen CPU % | rest of machine (cores) |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const [label, rs] of groups) {
  const mps = rs.map((r) => r.moves_per_s);
  const us = rs.map((r) => (r.moves ? r.server_cpu_us_per_move : NaN));
  med[label] = { mps: median(mps), us: median(us) };
  const reqPerMove = median(rs.map((r) => (r.moves ? r.requests / r.moves : NaN)));
  const extra = rs.some((r) => r.extra_cpu_s > 0) ? fmt(median(rs.map((r) => r.extra_cpu_us_per_move))) : '-';
  console.log(`| ${label} | ${mps.map((x) => fmt(x)).join(', ')} | **${fmt(med[label].mps)}** | ${fmt(reqPerMove, 2)} | ${us.map((x) => fmt(x)).join(', ')} | **${fmt(med[label].us)}** | ${extra} | ${rs.map((r) => fmt(r.loadgen_cpu_pct)).join(', ')} | ${rs.map((r) => fmt(r.other_cpu_cores, 2)).join(', ')} |`);
}
const a = 'boardgame.io';
console.log('\n| Referee configuration | moves/s over boardgame.io (medians) | server CPU per move over boardgame.io (medians) |');
console.log('|---|---|---|');
const ratio = (k) => (med[k] && med[a] && med[k].mps > 0 ? (med[k].mps / med[a].mps).toFixed(2) : 'n/a');
for (const k of groups.keys()) {
  if (k !== a) console.log(`| ${k} | ${ratio(k)} | ${med[k].mps > 0 && med[a] ? (med[k].us / med[a].us).toFixed(2) : 'n/a'} |`);
}
console.log(`peer ratios: new-flow-redis ${ratio('new-flow-redis')} new-flow-memory ${ratio('new-flow-memory')} documented-flow-redis ${ratio('documented-flow-redis')}`);
