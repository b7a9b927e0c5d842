const t0 = performance.now();
const { measureLevels } = await import('./dist/pipeline/cleanup/measureLevels.js');
const t1 = performance.now();
const r = await measureLevels({ path: process.argv[2] });
console.log('import', (t1-t0).toFixed(0), 'measure', (performance.now()-t1).toFixed(0), 'ms', r.durationSeconds);
