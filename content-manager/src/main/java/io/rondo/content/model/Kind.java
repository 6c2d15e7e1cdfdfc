package io.rondo.content.model;

/** The two kinds of data papers/001 serves from the same disks. */
public enum Kind {
    /** Read whole or by range when asked: documents, images, pages. D-requests. */
    DISCRETE,
    /** Read fragment by fragment, one per round, to a deadline: video, audio. C-requests. */
    CONTINUOUS
}
