package io.flashsale.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AppImageTest {

    private static final AppImage.Image IMAGE =
            new AppImage.Image(Path.of("/images/api.jar"), Optional.of(Path.of("/images/app.jsa")));

    @Test
    void startsFromTheArchive() throws Exception {
        assertThat(IMAGE.arguments(List.of("-Xmx1g"), Optional.empty()))
                .containsExactly("-XX:SharedArchiveFile=/images/app.jsa", "-jar", "/images/api.jar");
    }

    @Test
    void aFlightRecordingStartsWithoutTheArchive() throws Exception {
        assertThat(IMAGE.arguments(
                        List.of("-XX:StartFlightRecording=filename=api.jfr,settings=profile"), Optional.empty()))
                .containsExactly("-jar", "/images/api.jar");
        assertThat(AppImage.recording(List.of(), "-Xss1m -XX:StartFlightRecording=filename=/tmp/jfr/"))
                .isTrue();
        assertThat(AppImage.recording(List.of("-Xmx1g"), null)).isFalse();
    }
}
