/**
 * Which container a file is and which remuxer stores it: the one place that knows every container
 * package of {@code io.rondo.content.media}, which know only what they share, below it.
 */
package io.rondo.content.remux;
