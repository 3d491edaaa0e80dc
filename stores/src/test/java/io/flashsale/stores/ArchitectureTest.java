package io.flashsale.stores;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

@AnalyzeClasses(packages = "io.flashsale.stores", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule storesKnowNeitherApiNorWorker = noClasses()
            .that()
            .resideInAPackage("io.flashsale.stores..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("io.flashsale.api..", "io.flashsale.worker..");

    @ArchTest
    static final ArchRule featuresDoNotReachIntoOrders = noClasses()
            .that()
            .resideInAnyPackage("io.flashsale.stores.sale..", "io.flashsale.stores.admission..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("io.flashsale.stores.order..");
}
