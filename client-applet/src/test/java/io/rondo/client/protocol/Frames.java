package io.rondo.client.protocol;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Sample frames for the codec tests: every type, with edge values in their fields. */
final class Frames {
    private Frames() {
    }

    static ByteBuffer bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + seed);
        }
        return ByteBuffer.wrap(b);
    }

    static List<Frame> all() {
        List<Frame> frames = new ArrayList<>();
        frames.add(new Open("demo/a.webm", 0, new ClientProfile(1, 1)));
        frames.add(new Open("films/Été à Zürich — 東京 🎬.webm", Long.MAX_VALUE,
                new ClientProfile(Long.MAX_VALUE, Long.MAX_VALUE)));
        frames.add(new Open("x".repeat(65_535), 1, new ClientProfile(2_500_000, 8_388_608)));
        frames.add(new Open("cams/door.webm", 0, new ClientProfile(1, 1), true));
        frames.add(new Open("cams/door.webm", 20_000_000_000L, new ClientProfile(2_500_000, 8_388_608), true));
        frames.add(new Open("demo/a.webm", 30_000_000_000L, new ClientProfile(2_500_000, 8_388_608), false, true));
        frames.add(new Open("cams/door.webm", 0, new ClientProfile(1, 1), true, true));
        frames.add(new Pause());
        frames.add(new Resume());
        frames.add(new Seek(0));
        frames.add(new Seek(Long.MAX_VALUE));
        frames.add(new Seek(0, true));
        frames.add(new Seek(Long.MAX_VALUE, true));
        frames.add(new Close());
        frames.add(new Report(0, 0, 0));
        frames.add(new Report(4_000_000_000L, 2_000_000, Long.MAX_VALUE));
        frames.add(new Publish("cams/door.mp4", Publish.MP4, 1, ""));
        frames.add(new Publish("x".repeat(65_000), Publish.WEBM, Long.MAX_VALUE, "publish-token-01"));
        frames.add(new Media(bytes(1, 4)));
        frames.add(new Media(bytes(Media.MAX_BYTES, 5)));
        frames.add(new Accept(Long.MIN_VALUE, 1, 0, "", ByteBuffer.allocate(0)));
        frames.add(new Accept(7, 1_000_000_000L, 4_000_000, "avc1.64001f,mp4a.40.2", bytes(70_000, 1)));
        frames.add(new Accept(8, 500_000_000L, 2_000_000, "vp8,opus", bytes(300, 6), true));
        for (RejectReason r : RejectReason.values()) {
            frames.add(new Reject(r, r.transientShortage() ? 5 : 0, "short of " + r));
        }
        frames.add(new Reject(RejectReason.NETWORK, Integer.MAX_VALUE, ""));
        frames.add(new Data(0, 0, 0, 0, false, ByteBuffer.allocate(0)));
        frames.add(new Data(1, 33, -5, Long.MIN_VALUE, true, bytes(1000, 2)));
        frames.add(new Data(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, false,
                bytes(200_000, 3)));
        frames.add(new End());
        for (ErrorCode c : ErrorCode.values()) {
            frames.add(new ErrorFrame(c, c + " happened"));
        }
        frames.add(new Durable(0, 0, 0));
        frames.add(new Durable(Long.MAX_VALUE, 12_000_000_000L, Long.MAX_VALUE));
        frames.add(new Live(0, 0, false));
        frames.add(new Live(95_000_000_000L, 94_000_000_000L, false));
        frames.add(new Live(Long.MAX_VALUE, Long.MAX_VALUE, true));
        frames.add(new Redirect(RedirectReason.NOT_HERE, "rondo://node-b:8554/demo/a.webm"));
        frames.add(new Redirect(RedirectReason.NO_ROOM, "ws://[::1]:8080/stream/films/%C3%89t%C3%A9%20%5Bhd%5D.webm"));
        frames.add(new Redirect(RedirectReason.NO_ROOM, "wss://rondo.example:443/stream/a.webm"));
        frames.add(new ErrorFrame(0xFFFF, new String(new byte[] {(byte) 0xe2, (byte) 0x82, (byte) 0xac},
                StandardCharsets.UTF_8)));
        return frames;
    }

    static byte[] concat(List<Frame> frames) {
        int n = frames.stream().mapToInt(FrameCodec::encodedLength).sum();
        ByteBuffer out = ByteBuffer.allocate(n);
        frames.forEach(f -> FrameCodec.encode(f, out));
        return out.array();
    }

    static byte[] hex(String hex) {
        String h = hex.replaceAll("\\s+", "");
        byte[] b = new byte[h.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }

    static String toHex(ByteBuffer buf) {
        ByteBuffer b = buf.duplicate();
        StringBuilder s = new StringBuilder();
        while (b.hasRemaining()) {
            s.append(String.format("%02x", b.get()));
        }
        return s.toString();
    }
}
