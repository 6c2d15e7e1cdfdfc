/** The persistent catalog of media objects, on Chronicle Map. */
package io.rondo.content.catalog;
