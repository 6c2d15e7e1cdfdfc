// The admin port serves the dashboard's folder as it is, with no build step: every module the
// page imports, and every file index.html names, must be in the folder, of a type the server
// knows (.html, .js, .css, .svg, .json); and each script there is one the page loads.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

const DASHBOARD = new URL('../../../main/resources/io/rondo/server/admin/dashboard/', import.meta.url);
const SERVED = /\.(html|js|css|svg|json)$/;

/** The files the page loads: what index.html names and, transitively, what each module imports. */
function loaded() {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) {
      return;
    }
    seen.add(file);
    if (file.endsWith('.js')) {
      const source = readFileSync(new URL(file, DASHBOARD), 'utf8');
      for (const [, imported] of source.matchAll(/^import .* from '\.\/([^']+)';$/gm)) {
        visit(imported);
      }
    }
  };
  const page = readFileSync(new URL('index.html', DASHBOARD), 'utf8');
  for (const [, file] of page.matchAll(/(?:href|src)="([^"#?:]+)"/g)) {
    visit(file);
  }
  return [...seen].sort();
}

/** Every file under the folder, by its path in it. */
function present(folder = DASHBOARD, prefix = '') {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory()
    ? present(new URL(`${entry.name}/`, folder), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`]));
}

test('every file the page loads is in the folder, of a type the admin port serves', () => {
  const files = loaded();
  assert.ok(files.includes('dashboard.js') && files.includes('vendor/uPlot.esm.js'), `the page loads ${files}`);
  assert.deepEqual(files.filter((file) => !present().includes(file)), []);
  assert.deepEqual(files.filter((file) => !SERVED.test(file)), []);
});

test('every script in the folder is loaded by the page', () => {
  assert.deepEqual(present().filter((file) => file.endsWith('.js')).sort(), loaded().filter((f) => f.endsWith('.js')));
});

test('the vendored chart library keeps its licence beside it and says its version where it is used', () => {
  assert.ok(present().includes('vendor/LICENSE'));
  assert.match(readFileSync(new URL('vendor/LICENSE', DASHBOARD), 'utf8'), /MIT License[\s\S]*Leon Sorokin/);
  assert.match(readFileSync(new URL('slack-chart.js', DASHBOARD), 'utf8'), /uPlot 1\.6\.32/);
});
