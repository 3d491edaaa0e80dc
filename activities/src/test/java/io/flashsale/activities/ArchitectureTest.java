package io.flashsale.activities;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

@AnalyzeClasses(packages = "io.flashsale.activities", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule activitiesKnowNeitherApiNorWorker = noClasses()
            .that()
            .resideInAPackage("io.flashsale.activities..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("io.flashsale.api..", "io.flashsale.worker..");

    @ArchTest
    static final ArchRule featuresDoNotReachIntoOrders = noClasses()
            .that()
            .resideInAnyPackage("io.flashsale.activities.sale..", "io.flashsale.activities.admission..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("io.flashsale.activities.order..");
}
