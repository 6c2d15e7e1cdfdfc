/** The discrete-vs-nginx preset: discrete HTTP requests, Rondo beside nginx, then with streams playing. */
package io.rondo.benchmarks.preset.discrete;
