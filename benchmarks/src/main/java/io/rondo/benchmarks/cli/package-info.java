/** benchmarks.jar's command line: {@code rondo bench} and its presets, or JMH's own for anything else. */
package io.rondo.benchmarks.cli;
