package io.flashsale.e2e;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The Temporal Web UI as an operator uses it, in headless Chromium: the workflow list filtered by a
 * visibility query, a workflow's event history and its user metadata (summary, details, current
 * details), with a screenshot of what each view shows. Chromium and its driver are the machine's
 * own ({@code CHROME_BIN} and {@code CHROMEDRIVER}, else Debian's /usr/bin/chromium and
 * /usr/bin/chromedriver): nothing is downloaded.
 */
final class TemporalWebUi implements AutoCloseable {

    /** The UI reads the list from the visibility store, which follows the workflows shortly after. */
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private static final By ROWS = By.cssSelector("tr[data-testid='workflows-summary-configurable-table-row']");
    private static final By ROW_LINK = By.cssSelector("a[href*='/workflows/']");
    private static final By NO_RESULTS = By.xpath("//h2[normalize-space()='No Results']");
    private static final By EVENTS = By.cssSelector("[data-testid='event-summary-row']");
    private static final By USER_METADATA_TAB = By.cssSelector("[data-testid='user-metadata-tab']");
    /** The Markdown of summary, details and current details is rendered in an iframe under its heading. */
    private static final String PANEL = "//h3[normalize-space()='%s']"
            + "/ancestor::div[contains(@class,'surface-information')]/following-sibling::*[1]//iframe";

    private final URI base;
    private final Path screenshots;
    private final Path profile;
    private final ChromeDriver driver;

    private TemporalWebUi(URI base, Path screenshots, Path profile, ChromeDriver driver) {
        this.base = base;
        this.screenshots = screenshots;
        this.profile = profile;
        this.driver = driver;
    }

    /** Starts Chromium on a fresh profile for the UI at {@code base}; screenshots go to {@code screenshots}. */
    static TemporalWebUi open(URI base, Path screenshots) throws IOException {
        Files.createDirectories(screenshots);
        Path profile = Files.createTempDirectory("flashsale-chromium");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(setting("CHROMEDRIVER", "/usr/bin/chromedriver")))
                .usingAnyFreePort()
                .build();
        try {
            return new TemporalWebUi(base, screenshots, profile, new ChromeDriver(service, options(profile)));
        } catch (RuntimeException e) {
            delete(profile);
            throw e;
        }
    }

    private static ChromeOptions options(Path profile) {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(setting("CHROME_BIN", "/usr/bin/chromium"));
        // no background requests: the machine may have no way out, and the UI needs none
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--window-size=1600,1000",
                "--user-data-dir=" + profile);
        return options;
    }

    private static String setting(String name, String otherwise) {
        return Optional.ofNullable(System.getenv(name))
                .filter(v -> !v.isBlank())
                .orElse(otherwise);
    }

    /**
     * Opens the workflow list filtered by {@code query} and returns the workflow ids of its rows once it
     * shows at least {@code expected} of them, reloading meanwhile as the visibility store catches up;
     * after {@link #PATIENCE} it returns the ids shown then.
     */
    List<String> workflowIds(String query, int expected) {
        driver.get(
                base.resolve("/namespaces/default/workflows?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8))
                        .toString());
        try {
            return waiting().until(d -> {
                Optional<List<String>> shown = shownIds();
                if (shown.isPresent() && shown.get().size() < expected) {
                    d.navigate().refresh();
                    return null;
                }
                return shown.orElse(null);
            });
        } catch (TimeoutException tooFew) {
            return shownIds().orElse(List.of());
        }
    }

    /** The ids of the list's rows, empty when it says there are none, nothing while it still loads. */
    private Optional<List<String>> shownIds() {
        List<WebElement> rows = driver.findElements(ROWS);
        if (rows.isEmpty()) {
            return driver.findElements(NO_RESULTS).isEmpty() ? Optional.empty() : Optional.of(List.of());
        }
        return Optional.of(rows.stream()
                .map(row -> row.findElement(ROW_LINK).getText().trim())
                .toList());
    }

    /** Clicks the workflow's id in the list shown and waits for its event history. */
    void openWorkflow(String workflowId) {
        driver.findElement(By.linkText(workflowId)).click();
        waiting().until(ExpectedConditions.titleIs("Workflow History | " + workflowId));
        waiting().until(ExpectedConditions.presenceOfElementLocated(EVENTS));
    }

    /** Switches the workflow shown to its User Metadata tab: summary, details and current details. */
    void openUserMetadata() {
        driver.findElement(USER_METADATA_TAB).click();
        waiting().until(ExpectedConditions.titleContains("User Metadata | "));
    }

    /**
     * The text of the page once it shows every one of {@code expected} (the page as it is after
     * {@link #PATIENCE} otherwise).
     */
    String textShowing(String... expected) {
        try {
            return waiting().until(d -> {
                String text = text();
                return Stream.of(expected).allMatch(text::contains) ? text : null;
            });
        } catch (TimeoutException missing) {
            return text();
        }
    }

    private String text() {
        return driver.findElement(By.tagName("body")).getText();
    }

    /** The rendered Markdown under a user metadata heading (Summary, Details, Current Details). */
    String panel(String heading) {
        return waiting().until(d -> {
            d.switchTo().frame(d.findElement(By.xpath(PANEL.formatted(heading))));
            try {
                String text = d.findElement(By.tagName("body")).getText();
                return text.isBlank() ? null : text;
            } finally {
                d.switchTo().defaultContent();
            }
        });
    }

    /** Saves what the browser shows as {@code name}.png in the screenshot folder. */
    void screenshot(String name) throws IOException {
        Files.copy(
                driver.getScreenshotAs(OutputType.FILE).toPath(),
                screenshots.resolve(name + ".png"),
                StandardCopyOption.REPLACE_EXISTING);
    }

    private WebDriverWait waiting() {
        WebDriverWait wait = new WebDriverWait(driver, PATIENCE);
        wait.ignoring(StaleElementReferenceException.class);
        return wait;
    }

    /** Quits Chromium and its driver, then removes the profile. */
    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            delete(profile);
        }
    }

    private static void delete(Path profile) {
        try (Stream<Path> files = Files.walk(profile)) {
            files.sorted(Comparator.reverseOrder())
                    .forEach(file -> file.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            System.err.println("left Chromium's profile " + profile + " behind: " + e);
        }
    }
}
