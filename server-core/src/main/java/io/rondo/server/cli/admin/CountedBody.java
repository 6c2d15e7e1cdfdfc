package io.rondo.server.cli.admin;

import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.util.concurrent.Flow;
import java.util.function.LongConsumer;

/** A body that counts its bytes as the HTTP client takes them. */
final class CountedBody implements HttpRequest.BodyPublisher {

    private final HttpRequest.BodyPublisher body;
    private final LongConsumer taken;

    CountedBody(HttpRequest.BodyPublisher body, LongConsumer taken) {
        this.body = body;
        this.taken = taken;
    }

    @Override
    public long contentLength() {
        return body.contentLength();
    }

    @Override
    public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
        body.subscribe(new Flow.Subscriber<>() {
            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                subscriber.onSubscribe(subscription);
            }

            @Override
            public void onNext(ByteBuffer piece) {
                taken.accept(piece.remaining());
                subscriber.onNext(piece);
            }

            @Override
            public void onError(Throwable failure) {
                subscriber.onError(failure);
            }

            @Override
            public void onComplete() {
                subscriber.onComplete();
            }
        });
    }
}
