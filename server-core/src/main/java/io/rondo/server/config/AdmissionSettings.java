package io.rondo.server.config;

import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.scheduler.admission.AdmissionPolicy;

/**
 * How new streams are admitted, {@code admission:} in {@code rondo.yaml}. The defaults are the
 * admission controller's own ({@link AdmissionPolicy#DEFAULT}, {@link AdmissionConfig#DEFAULT_DISCRETE_RESERVE}).
 *
 * @param policy          {@code admission.policy}: Adm1, Adm2 (the default) or Adm3 of papers/000 Section 2.3
 * @param discreteReserve {@code admission.discreteReserve}: the share of each round kept for D-requests
 */
public record AdmissionSettings(AdmissionPolicy policy, double discreteReserve) {

    /** Checks the reserve once. */
    public AdmissionSettings {
        if (!(discreteReserve >= 0 && discreteReserve < 1)) {
            throw new IllegalArgumentException("admission.discreteReserve must be at least 0 and below 1, was "
                + discreteReserve);
        }
    }

    /** The section as written: what it says, the defaults for the rest. */
    static AdmissionSettings read(Section written) {
        AdmissionPolicy policy;
        try {
            policy = written.policy() == null ? AdmissionPolicy.DEFAULT : AdmissionPolicy.parse(written.policy());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("admission.policy: " + e.getMessage(), e);
        }
        return new AdmissionSettings(policy,
            Settings.orDefault(written.discreteReserve(), AdmissionConfig.DEFAULT_DISCRETE_RESERVE));
    }

    /** {@code admission:} as the file writes it; a key left out is null. */
    record Section(String policy, Double discreteReserve) {
        static final Section EMPTY = new Section(null, null);
    }
}
