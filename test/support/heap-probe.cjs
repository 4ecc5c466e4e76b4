// Preloaded (`-r`) into a gateway child started with --expose-gc (test/memory.test.ts): answers a
// 'heap' message on the IPC channel with process.memoryUsage() taken after full collections.
process.on('message', (message) => {
  if (message !== 'heap') return;
  // Twice: the first collection may only queue finalizers whose objects the second one frees.
  globalThis.gc();
  globalThis.gc();
  process.send({ heap: process.memoryUsage() });
});
