package io.kvledger.infrastructure.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** The version {@code --version} prints: the build's own, from a resource Maven filters, never a literal. */
public final class BuildVersion implements IVersionProvider {

    private static final String RESOURCE = "build.properties";

    /** The project version this command line was built as, e.g. {@code 0.1.0-SNAPSHOT}. */
    public static String version() {
        try (InputStream in = BuildVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the class path: the jar was not built by Maven");
            }
            Properties properties = new Properties();
            properties.load(in);
            String version = properties.getProperty("version", "");
            if (version.isBlank() || version.contains("${")) {
                throw new IllegalStateException(RESOURCE + " was not filtered by the build: version=" + version);
            }
            return version;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String[] getVersion() {
        return new String[] {"kvledger " + version()};
    }
}
