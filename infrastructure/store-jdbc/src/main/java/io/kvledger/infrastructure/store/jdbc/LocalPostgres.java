package io.kvledger.infrastructure.store.jdbc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A throwaway PostgreSQL cluster on this machine, from the installed server binaries: for tests, the
 * benchmarks and trying a fleet out, never for production. {@code initdb} refuses to run as root, so
 * as root the binaries run as an unprivileged user (the {@code postgres} user when it exists, else a
 * system user created for it) who owns the cluster's directory. The server listens on 127.0.0.1 and
 * on a Unix socket in that directory, and stops (its directory deleted) on {@link #close}, at JVM exit,
 * and, through a watchdog process, when this JVM dies without either.
 */
public final class LocalPostgres implements AutoCloseable {

    /** Settings for throwaway data: no fsync, so tests and soaks do not wait for the disk. */
    public static final List<String> THROWAWAY = List.of("fsync=off", "synchronous_commit=off", "full_page_writes=off");

    private final Path bin;
    private final Path base;
    private final int port;
    private final List<String> asUser;
    private final Thread hook;
    private boolean stopped;

    private LocalPostgres(Path bin, Path base, int port, List<String> asUser) {
        this.bin = bin;
        this.base = base;
        this.port = port;
        this.asUser = asUser;
        this.hook = new Thread(this::stop, "local-postgres-stop");
    }

    /** Starts a cluster on the first free port from {@code firstPort} (trying 100), with {@code settings}. */
    public static LocalPostgres start(int firstPort, List<String> settings) {
        Path bin = binaries();
        List<String> asUser = unprivilegedUser();
        IOException last = null;
        for (int port = firstPort; port < firstPort + 100; port++) {
            if (!free(port)) {
                continue;
            }
            try {
                Path base = Files.createTempDirectory("kvledger-pg-");
                LocalPostgres server = new LocalPostgres(bin, base, port, asUser);
                if (server.tryStart(settings)) {
                    return server;
                }
                server.stop();
            } catch (IOException e) {
                last = e;
            }
        }
        throw new IllegalStateException("cannot start PostgreSQL on any port from " + firstPort + " to " + (firstPort + 99)
                + (last == null ? "" : ": " + last.getMessage()), last);
    }

    private boolean tryStart(List<String> settings) throws IOException {
        Path data = base.resolve("data");
        if (!asUser.isEmpty()) {
            run(List.of("chown", asUser.get(2), base.toString()), "chown");
        }
        run(asUser(bin.resolve("initdb").toString(), "-D", data.toString(), "--auth=trust", "-U", "postgres",
                "-E", "UTF8", "--no-locale", "--no-sync"), "initdb");
        StringBuilder options = new StringBuilder("-c listen_addresses=127.0.0.1 -p " + port
                + " -c unix_socket_directories=" + base + " -c max_connections=200");
        for (String setting : settings) {
            options.append(" -c ").append(setting);
        }
        Process start = new ProcessBuilder(asUser(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l",
                base.resolve("server.log").toString(), "-w", "-t", "60", "-o", options.toString(), "start"))
                .redirectErrorStream(true).start();
        String output = read(start);
        if (exit(start) != 0) {
            String log = Files.exists(base.resolve("server.log")) ? Files.readString(base.resolve("server.log")) : "";
            if (log.contains("Address already in use") || log.contains("could not bind")) {
                return false;
            }
            throw new IOException("pg_ctl start failed: " + output + log);
        }
        Runtime.getRuntime().addShutdownHook(hook);
        watchdog();
        return true;
    }

    /** Stops the server should this JVM die without running its shutdown hooks (SIGKILL). */
    private void watchdog() throws IOException {
        long pid = ProcessHandle.current().pid();
        String stop = String.join(" ", asUser(bin.resolve("pg_ctl").toString(), "-D", base.resolve("data").toString(),
                "-m", "immediate", "stop"));
        String script = "while kill -0 " + pid + " 2>/dev/null; do sleep 1; done; "
                + "if [ -d " + base + "/data ]; then " + stop + " >/dev/null 2>&1; rm -rf " + base + "; fi";
        new ProcessBuilder("sh", "-c", script).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    /** A JDBC URL for {@code database} on this server (user postgres, no password). */
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database + "?user=postgres";
    }

    public int port() {
        return port;
    }

    /** Creates an empty database. */
    public void createDatabase(String name) {
        try {
            run(asUser(bin.resolve("createdb").toString(), "-h", base.toString(), "-p", String.valueOf(port),
                    "-U", "postgres", name), "createdb");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException | IllegalArgumentException e) {
            // already shutting down, or never registered
        }
    }

    private synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        try {
            if (Files.isDirectory(base.resolve("data").resolve("global"))) {
                Process stop = new ProcessBuilder(asUser(bin.resolve("pg_ctl").toString(), "-D",
                        base.resolve("data").toString(), "-m", "immediate", "-w", "stop")).redirectErrorStream(true).start();
                read(stop);
                exit(stop);
            }
            delete(base);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stop PostgreSQL in " + base, e);
        }
    }

    /** The server binaries: $KVLEDGER_PG_BIN, else the newest /usr/lib/postgresql/N/bin. */
    static Path binaries() {
        String env = System.getenv("KVLEDGER_PG_BIN");
        if (env != null && Files.isExecutable(Path.of(env, "initdb"))) {
            return Path.of(env);
        }
        Path debian = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(debian)) {
            try (Stream<Path> versions = Files.list(debian)) {
                Optional<Path> newest = versions.map(v -> v.resolve("bin"))
                        .filter(b -> Files.isExecutable(b.resolve("initdb")))
                        .max(Comparator.comparingInt(LocalPostgres::majorVersion));
                if (newest.isPresent()) {
                    return newest.get();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        throw new IllegalStateException("no PostgreSQL server binaries: install Debian's postgresql package"
                + " (apt-get update && apt-get install -y postgresql; ./test does this) or set KVLEDGER_PG_BIN"
                + " to a directory holding initdb, pg_ctl and postgres");
    }

    private static int majorVersion(Path bin) {
        try {
            return Integer.parseInt(bin.getParent().getFileName().toString());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** As root: runuser to the postgres user (created as a system user when missing). Else nothing. */
    private static List<String> unprivilegedUser() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return List.of();
        }
        String user = "postgres";
        try {
            if (exit(new ProcessBuilder("id", "-u", user).start()) != 0) {
                user = "kvledger-pg";
                if (exit(new ProcessBuilder("id", "-u", user).start()) != 0) {
                    run(List.of("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", user), "useradd");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find or create an unprivileged user for PostgreSQL", e);
        }
        return List.of("runuser", "-u", user, "--");
    }

    private List<String> asUser(String... command) {
        List<String> all = new ArrayList<>(asUser);
        all.addAll(List.of(command));
        return all;
    }

    private static void run(List<String> command, String what) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = read(process);
        if (exit(process) != 0) {
            throw new IOException(what + " failed (" + String.join(" ", command) + "): " + output.strip());
        }
    }

    private static String read(Process process) throws IOException {
        return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    private static int exit(Process process) throws IOException {
        try {
            if (!process.waitFor(90, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("timed out: " + process.info().commandLine().orElse("?"));
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    private static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
