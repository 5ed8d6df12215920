package dev.burnbox.server.web;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.UnexpectedAlertBehaviour;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's headless {@code chromium} driven by its {@code chromium-driver}, with a throwaway
 * profile, for the browser tests; they are skipped where the browser is not installed.
 */
final class HeadlessChromium implements AutoCloseable {
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

  private final Path profile;
  private final ChromeDriver driver;

  private HeadlessChromium(Path profile, ChromeDriver driver) {
    this.profile = profile;
    this.driver = driver;
  }

  /** Starts the browser, or skips the calling test class if it is not installed. */
  static HeadlessChromium start() throws IOException {
    Assumptions.assumeTrue(
        Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
        "browser tests skipped: they need /usr/bin/chromium and /usr/bin/chromedriver"
            + " (apt-get install chromium chromium-driver)");
    Path profile = Files.createTempDirectory("burnbox-chromium-");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-dev-shm-usage",
        "--window-size=1280,1000",
        "--user-data-dir=" + profile);
    // a dialog opened by mail must stay open so a test can see it
    options.setUnhandledPromptBehaviour(UnexpectedAlertBehaviour.IGNORE);
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(CHROMEDRIVER.toFile())
            .usingAnyFreePort()
            .build();
    return new HeadlessChromium(profile, new ChromeDriver(service, options));
  }

  ChromeDriver driver() {
    return driver;
  }

  /** The text of {@code element} as the eye sees it: without its visually hidden words. */
  String shownText(WebElement element) {
    return (String)
        driver.executeScript(
            "const copy = arguments[0].cloneNode(true);"
                + " copy.querySelectorAll('.visually-hidden').forEach(e => e.remove());"
                + " return copy.textContent;",
            element);
  }

  @Override
  public void close() throws IOException {
    driver.quit();
    try (Stream<Path> files = Files.walk(profile)) {
      files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
    }
  }
}
