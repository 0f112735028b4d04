package io.kvledger.infrastructure.cli;

import java.lang.reflect.Method;

/**
 * Installs the launcher's HotSpot compiler directives (which methods C2 may compile) from inside the process.
 * The JVM's own way, {@code -XX:CompilerDirectivesFile}, prints "N compiler directives added" on stdout, and a
 * tool's stdout must stay exactly its output. The diagnostic command {@code Compiler.directives_add} does the
 * same install and returns that text as a string instead; it is reached here directly, not through the platform
 * MBean server, whose start costs about 0.3 s of CPU against some 0.02 s for this (the jar's manifest opens
 * {@code com.sun.management.internal} for it).
 *
 * <p>Whatever goes wrong (no such file, a JVM without the command, the package not opened when the jar is on a
 * class path instead of run with {@code -jar}), nothing is printed and the run goes on with the JVM's own
 * choices: the directives decide only how fast a run is, never what it prints.
 */
final class CompilerDirectives {

    /** The system property naming the directives file; the launcher sets it for the runs it chose them for. */
    static final String FILE_PROPERTY = "kvledger.compilerDirectives";

    private CompilerDirectives() {
    }

    /** Installs the file {@link #FILE_PROPERTY} names, if it names one; returns the JVM's answer, or why not. */
    static String installRequested() {
        String file = System.getProperty(FILE_PROPERTY);
        return file == null || file.isEmpty() ? "none requested" : install(file);
    }

    /** Adds the directives of {@code file} to the JVM's stack; returns what the JVM answered, or why it could not. */
    static String install(String file) {
        try {
            ClassLoader platform = ClassLoader.getPlatformClassLoader();
            // Its class initialisation loads the native library the diagnostic commands are implemented in.
            Class.forName("com.sun.management.internal.PlatformMBeanProviderImpl", true, platform);
            Class<?> type = Class.forName("com.sun.management.internal.DiagnosticCommandImpl", true, platform);
            Method bean = type.getDeclaredMethod("getDiagnosticCommandMBean");
            bean.setAccessible(true);
            Method execute = type.getDeclaredMethod("executeDiagnosticCommand", String.class);
            execute.setAccessible(true);
            // Quoted: the command's arguments are split at spaces, and a project root may hold one.
            Object answer = execute.invoke(bean.invoke(null), "Compiler.directives_add \"" + file + "\"");
            return String.valueOf(answer).strip();
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return "not installed: " + e;
        }
    }
}
