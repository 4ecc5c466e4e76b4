// The client SDK's sources are ES modules as Node resolves them: a relative import names the `.js`
// its `.ts` compiles to (client/tsconfig.json, NodeNext). The tests run those sources directly, so a
// relative `.js` that does not exist resolves to its `.ts`; everything else resolves as usual.
module.exports = (request, options) => {
  try {
    return options.defaultResolver(request, options);
  } catch (error) {
    if (/^\.\.?\/.*\.js$/.test(request)) return options.defaultResolver(request.replace(/\.js$/, '.ts'), options);
    throw error;
  }
};
