package io.kvledger.tests;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * The production classes the architecture tests judge: those of the module jars (or class directories) on the
 * test class path, test classes left out. Imported once for all of those tests, on first use: the import reads
 * every class of every module.
 */
final class ProductionClasses {

    private ProductionClasses() {
    }

    private static final class Imported {
        static final JavaClasses ALL = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.kvledger");
    }

    static JavaClasses all() {
        return Imported.ALL;
    }

    /** The production classes whose name begins with {@code packagePrefix}. */
    static long count(String packagePrefix) {
        return all().stream().filter(c -> c.getName().startsWith(packagePrefix)).count();
    }
}
