// Preloaded (node --require) into Electronegativity so it runs offline: on
// every run it downloads updated translations, and when that fails its HTTP
// client crashes on the retry. Its own English messages are bundled, so this
// puts in place of its translation loader one that sets them up the same way,
// without the download.
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS preload for a CommonJS tool */
'use strict';

const Module = require('node:module');
const path = require('node:path');

const loaderFile = require.resolve('@doyensec/electronegativity/dist/locales/i18n.js');
const i18n = Module.createRequire(loaderFile)('i18n');

function loadBundledTranslations() {
  i18n.configure({
    locales: ['en-US'],
    defaultLocale: 'en-US',
    directory: path.dirname(loaderFile),
    updateFiles: false,
    objectNotation: true,
    retryInDefaultLocale: true,
    register: global,
  });
  i18n.setLocale('en-US');
  return Promise.resolve();
}

const loader = new Module(loaderFile);
loader.filename = loaderFile;
loader.loaded = true;
loader.exports = loadBundledTranslations;
require.cache[loaderFile] = loader;

// Its CSV writer starts two asynchronous writes at once, the header (which
// truncates the file) and then the rows (appended), so the header can land
// last and cut rows off. Writes to a .csv file are made in the order asked.
const fs = require('node:fs');
const writeFile = fs.writeFile;
fs.writeFile = function writeCsvInOrder(file, data, options, callback) {
  if (typeof file !== 'string' || !file.endsWith('.csv')) {
    return writeFile.call(fs, file, data, options, callback);
  }
  const done = typeof options === 'function' ? options : callback;
  try {
    fs.writeFileSync(file, data, typeof options === 'function' ? undefined : options);
    process.nextTick(done, null);
  } catch (error) {
    process.nextTick(done, error);
  }
};
