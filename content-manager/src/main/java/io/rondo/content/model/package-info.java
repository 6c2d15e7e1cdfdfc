/** What the content manager knows of a media object: its kind, placement over disks and fragment table. */
package io.rondo.content.model;
