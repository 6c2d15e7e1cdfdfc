/** The policy framework of papers/001 Section 2.4 and the four policies of Section 3. */
package io.rondo.scheduler.policy;
