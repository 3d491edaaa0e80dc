package io.flashsale.workflows;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The workflows module stays pure: Temporal SDK only, and workflow code takes time, randomness and
 * sleep from {@code Workflow.*} so that every replay decides the same (library's
 * NoSpringInDomainLogicTest idea).
 */
@AnalyzeClasses(packages = "io.flashsale.workflows", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule workflowsKnowNoSpringJdbcOrRedis = noClasses()
            .that()
            .resideInAPackage("io.flashsale.workflows..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                    "org.springframework..", "java.sql..", "javax.sql..", "io.lettuce..", "redis..", "com.mysql..");

    @ArchTest
    static final ArchRule workflowsKnowNoOtherModule = noClasses()
            .that()
            .resideInAPackage("io.flashsale.workflows..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("io.flashsale.stores..", "io.flashsale.api..", "io.flashsale.worker..");

    @ArchTest
    static final ArchRule workflowCodeTakesTimeAndRandomnessFromWorkflow = noClasses()
            .that()
            .resideInAPackage("io.flashsale.workflows.purchase")
            .and()
            .haveSimpleNameEndingWith("WorkflowImpl")
            .or()
            .haveFullyQualifiedName("io.flashsale.workflows.purchase.PurchaseState")
            .should()
            .callMethod(Instant.class, "now")
            .orShould()
            .callMethod(System.class, "currentTimeMillis")
            .orShould()
            .callMethod(System.class, "nanoTime")
            .orShould()
            .callMethod(UUID.class, "randomUUID")
            .orShould()
            .callMethod(Thread.class, "sleep", long.class)
            .orShould()
            .dependOnClassesThat()
            .belongToAnyOf(Random.class, SecureRandom.class, ThreadLocalRandom.class)
            .because("workflow code must replay deterministically: use Workflow.currentTimeMillis,"
                    + " Workflow.randomUUID, Workflow.newRandom and Workflow.sleep");
}
