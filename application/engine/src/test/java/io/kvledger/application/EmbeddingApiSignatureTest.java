package io.kvledger.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.engine.StepEntry;
import io.kvledger.application.engine.StepFailedException;
import io.kvledger.application.engine.StepResult;
import io.kvledger.application.spi.OpenStore;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The embedding API names no Axon type: every public or protected constructor, method and field of the
 * types a host uses, their supertypes, generic arguments, bounds and thrown types included. Axon stays
 * inside (the package-private {@code AxonLedger}, the aggregate) and in the store SPI.
 */
class EmbeddingApiSignatureTest {

    /** What a host touches: the facade, its builder, the store choice, the step's input and output. */
    static final List<Class<?>> EMBEDDING_API = List.of(KvLedger.class, KvLedger.Builder.class, LedgerStore.class,
            StepListener.class, ConfigMismatchException.class, EngineConflictException.class, StepBatcher.class, StepResult.class, StepEntry.class,
            StepFailedException.class);

    @Test
    void noPublicSignatureOfTheEmbeddingApiNamesAnAxonType() {
        List<String> leaks = new ArrayList<>();
        for (Class<?> type : EMBEDDING_API) {
            leaks.addAll(axonTypesIn(type));
        }
        assertEquals(List.of(), leaks);
    }

    @Test
    void everyPublicTypeOfTheApiPackageIsChecked() throws Exception {
        // A public type added to io.kvledger.application later is part of the API: it must be in the list.
        Path dir = Path.of(KvLedger.class.getResource("KvLedger.class").toURI()).getParent();
        List<String> unlisted = new ArrayList<>();
        try (var files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class") && !f.endsWith("package-info.class")).toList()) {
                String name = file.getFileName().toString().replace(".class", "");
                Class<?> type = Class.forName("io.kvledger.application." + name);
                if (Modifier.isPublic(type.getModifiers()) && !type.isAnonymousClass() && !EMBEDDING_API.contains(type)) {
                    unlisted.add(type.getName());
                }
            }
        }
        assertEquals(List.of(), unlisted);
    }

    @Test
    void theImplementationIsNotPublic() {
        assertFalse(Modifier.isPublic(AxonLedger.class.getModifiers()), "hosts depend on the KvLedger interface");
        assertTrue(KvLedger.class.isInterface());
        assertTrue(KvLedger.builder().build() instanceof AxonLedger);
    }

    @Test
    void theCheckFindsAnAxonTypeWhereThereIsOne() {
        // The SPI may name Axon: the same walk over it must report the storage engine, so the check is not vacuous.
        List<String> leaks = axonTypesIn(OpenStore.class);
        assertTrue(leaks.stream().anyMatch(l -> l.contains("org.axonframework.eventsourcing.eventstore.EventStorageEngine")),
                leaks.toString());
    }

    static List<String> axonTypesIn(Class<?> type) {
        List<String> leaks = new ArrayList<>();
        check(type.getName() + " extends", type.getGenericSuperclass(), leaks);
        for (Type implemented : type.getGenericInterfaces()) {
            check(type.getName() + " implements", implemented, leaks);
        }
        for (Method method : type.getDeclaredMethods()) {
            if (visible(method.getModifiers()) && !method.isSynthetic()) {
                check(type.getName() + "." + method.getName() + " returns", method.getGenericReturnType(), leaks);
                checkExecutable(type.getName() + "." + method.getName(), method, leaks);
            }
        }
        for (Constructor<?> constructor : type.getDeclaredConstructors()) {
            if (visible(constructor.getModifiers())) {
                checkExecutable(type.getName() + ".<init>", constructor, leaks);
            }
        }
        for (Field field : type.getDeclaredFields()) {
            if (visible(field.getModifiers())) {
                check(type.getName() + "." + field.getName(), field.getGenericType(), leaks);
            }
        }
        return leaks;
    }

    private static boolean visible(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static void checkExecutable(String where, Executable executable, List<String> leaks) {
        for (Type parameter : executable.getGenericParameterTypes()) {
            check(where + " takes", parameter, leaks);
        }
        for (Type thrown : executable.getGenericExceptionTypes()) {
            check(where + " throws", thrown, leaks);
        }
        for (TypeVariable<?> variable : executable.getTypeParameters()) {
            check(where + " <" + variable.getName() + ">", variable, leaks);
        }
    }

    private static void check(String where, Type type, List<String> leaks) {
        Set<String> names = new HashSet<>();
        collect(type, names, new HashSet<>());
        names.stream().filter(n -> n.startsWith("org.axonframework.")).sorted().forEach(n -> leaks.add(where + " " + n));
    }

    private static void collect(Type type, Set<String> names, Set<Type> seen) {
        if (type == null || !seen.add(type)) {
            return;
        }
        if (type instanceof Class<?> c) {
            names.add(c.isArray() ? c.getComponentType().getName() : c.getName());
        } else if (type instanceof ParameterizedType p) {
            collect(p.getRawType(), names, seen);
            for (Type argument : p.getActualTypeArguments()) {
                collect(argument, names, seen);
            }
        } else if (type instanceof WildcardType w) {
            for (Type bound : w.getUpperBounds()) {
                collect(bound, names, seen);
            }
            for (Type bound : w.getLowerBounds()) {
                collect(bound, names, seen);
            }
        } else if (type instanceof TypeVariable<?> v) {
            for (Type bound : v.getBounds()) {
                collect(bound, names, seen);
            }
        } else if (type instanceof GenericArrayType a) {
            collect(a.getGenericComponentType(), names, seen);
        }
    }
}
