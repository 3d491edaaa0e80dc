package io.flashsale.api;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.type;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.flashsale.stores.sale.Price;

/**
 * The api admits through Redis and drives purchases through Temporal: it never touches orders in
 * MySQL and knows nothing of the worker. Only sale admin reads and writes sales. (That it runs no
 * activities is a fact of its Maven dependencies: {@code activities} is not on its classpath.)
 */
@AnalyzeClasses(packages = "io.flashsale.api", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule apiDoesNotTouchOrders = noClasses()
            .that()
            .resideInAPackage("io.flashsale.api..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("io.flashsale.stores.order..")
            .because("orders are written by the workflow's activities, never by the api");

    @ArchTest
    static final ArchRule apiRunsNoSql = noClasses()
            .that()
            .resideInAPackage("io.flashsale.api..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("java.sql..", "javax.sql..")
            .orShould()
            .dependOnClassesThat()
            .haveFullyQualifiedName("org.springframework.jdbc.core.simple.JdbcClient")
            .orShould()
            .dependOnClassesThat()
            .haveFullyQualifiedName("org.springframework.jdbc.core.JdbcTemplate")
            .orShould()
            .dependOnClassesThat()
            .haveFullyQualifiedName("org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate")
            .because("the api reaches MySQL only through the sale admin's repository");

    @ArchTest
    static final ArchRule apiKnowsNoWorker = noClasses()
            .that()
            .resideInAPackage("io.flashsale.api..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("io.flashsale.worker..");

    @ArchTest
    static final ArchRule onlySaleAdminUsesSales = noClasses()
            .that()
            .resideInAPackage("io.flashsale.api..")
            .and()
            .resideOutsideOfPackage("io.flashsale.api.sale..")
            .and()
            .resideOutsideOfPackage("io.flashsale.api.warmup..")
            .should()
            .dependOnClassesThat(resideInAPackage("io.flashsale.stores.sale..").and(not(type(Price.class))))
            .because("purchases reach the sale only through the admission gate and the workflow (and read a"
                    + " sale's price through the sale package); the warm-up loads its own private sales");
}
