package io.flashsale.worker;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The worker hosts workflows and activities; it knows nothing of the api and leaves the stores to activities. */
@AnalyzeClasses(packages = "io.flashsale.worker", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule workerKnowsNothingOfTheApi = noClasses()
            .that()
            .resideInAPackage("io.flashsale.worker..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("io.flashsale.api..");

    @ArchTest
    static final ArchRule workerLeavesJdbcAndRedisToActivities = noClasses()
            .that()
            .resideInAPackage("io.flashsale.worker..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                    "java.sql..",
                    "javax.sql..",
                    "org.springframework.jdbc..",
                    "org.springframework.data.redis..",
                    "io.lettuce..");
}
