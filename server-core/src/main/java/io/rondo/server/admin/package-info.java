/**
 * The admin port: a REST API under {@code /api/v1} (docs/admin-api.md, and the OpenAPI document it
 * serves at {@code /api/v1/openapi.yaml}), bearer tokens with a read and an admin scope, RFC 9457
 * problems for every error, Prometheus metrics at {@code /metrics}, Server-Sent Events of the rounds
 * and the streams, and the dashboard at {@code /admin/}.
 */
package io.rondo.server.admin;
