package io.rondo.server.admin;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The admin port's routes, matched in the order they were added: the first route whose template
 * and method match a request takes it; a path some route has but not for the method is 405 with
 * {@code Allow}; a path no route has is 404.
 */
public final class AdminRouter {

    /** A request's route and the variables its template took from the path. */
    public record Match(Route route, Map<String, String> variables) {
    }

    private final List<Route> routes = new ArrayList<>();

    /** Adds routes. */
    public AdminRouter add(Route... more) {
        routes.addAll(List.of(more));
        return this;
    }

    /** Every route, for the API's own tests. */
    public List<Route> routes() {
        return List.copyOf(routes);
    }

    /**
     * The route of a request.
     *
     * @param segments the decoded segments of its path
     * @throws Problem 404 or 405
     */
    public Match match(String method, String path, List<String> segments) {
        Set<String> allowed = new LinkedHashSet<>();
        for (Route route : routes) {
            Map<String, String> variables = route.match(segments);
            if (variables == null) {
                continue;
            }
            if (route.method().equals(method)) {
                return new Match(route, variables);
            }
            allowed.add(route.method());
        }
        if (allowed.isEmpty()) {
            throw Problem.notFound("the admin port has no resource at " + path + "; GET /api/v1/openapi.yaml "
                + "describes every one");
        }
        throw Problem.methodNotAllowed(method, path, String.join(", ", allowed));
    }
}
