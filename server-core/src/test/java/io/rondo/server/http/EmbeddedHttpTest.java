package io.rondo.server.http;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

/** What the handler tests share: one real library for the class, and a new connection for each test. */
abstract class EmbeddedHttpTest {

    @TempDir
    static Path temp;

    static TestLibrary library;

    EmbeddedHttp http;

    @BeforeAll
    static void openLibrary() throws IOException {
        library = TestLibrary.open(temp).start();
    }

    @AfterAll
    static void closeLibrary() {
        library.close();
    }

    @BeforeEach
    void connect() {
        http = new EmbeddedHttp(library, new HotObjects());
    }

    @AfterEach
    void disconnect() {
        http.close();
    }
}
