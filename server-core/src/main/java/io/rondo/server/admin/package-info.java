/**
 * The admin port: a REST API under {@code /api/v1} (docs/admin-api.md, and the OpenAPI document it
 * serves at {@code /api/v1/openapi.yaml}), bearer tokens with a read and an admin scope, RFC 9457
 * problems for every error, Prometheus metrics at {@code /metrics}, Server-Sent Events of the rounds
 * and the streams, and the dashboard at {@code /admin/}.
 *
 * <p>Server, initializer, handler: {@link io.rondo.server.admin.AdminServer} binds the port,
 * {@code AdminInitializer} builds each connection's pipeline, and {@code AdminHandler} answers its
 * requests in order, with one class for each step (the target, the token, the body or the upload's
 * backpressure, Accept, the reply). The resources are one class each ({@code ServerResource},
 * {@code MetricsResource}, {@code DashboardResource}, {@code StreamsResource}, {@code DisksResource},
 * {@code PolicyResource}, {@code AdmissionResource}, {@code EventsResource}, which
 * {@link io.rondo.server.admin.AdminApi} builds, and {@link io.rondo.server.admin.ObjectsResource}),
 * each adding its {@link io.rondo.server.admin.Route}s to the {@link io.rondo.server.admin.AdminRouter}.
 * Blocking work (uploads, renames, deletes) runs on {@code AdminWorker}s, single threads with
 * bounded queues.
 */
package io.rondo.server.admin;
