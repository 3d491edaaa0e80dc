# syntax=docker/dockerfile:1
# Image of one Spring Boot process of this repository: docker build --build-arg MODULE=api|worker .
# Needs BuildKit (RUN --mount): the builder of docker compose v2 and of Docker 23 and later; with
# docker-compose v1 set DOCKER_BUILDKIT=1 COMPOSE_DOCKER_CLI_BUILD=1 (docs/production.md).
ARG MODULE=api

FROM maven:3.9-eclipse-temurin-17 AS build
ARG MODULE
WORKDIR /src
COPY . .
# The Maven repository is a cache shared by every build of this file, and compose builds the api and
# the worker at the same time: sharing=locked lets one build use it at a time. The formatter check
# is for ./mvnw verify, not for images: a checkout with CRLF line endings still builds.
RUN --mount=type=cache,target=/root/.m2,sharing=locked \
    mvn -B -q -pl "${MODULE}" -am -DskipTests -Dspotless.check.skip=true package \
    && cp "${MODULE}"/target/"${MODULE}"-*-exec.jar /app.jar

FROM eclipse-temurin:17-jre
# JAVA_COLLECTOR: the api's collector (FlashSaleStack.API_COLLECTOR; docker-compose.yml passes it to
# the api's build), empty for the worker: G1
ARG JAVA_COLLECTOR=""
RUN apt-get update \
    && apt-get install -y --no-install-recommends curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 flashsale
COPY --from=build /app.jar /app/app.jar
USER flashsale
# JAVA_OPTS: the heap sized from the container's memory limit (mem_limit in docker-compose.yml),
# leaving a quarter for metaspace, thread stacks and direct buffers; C1 only, or a sale's burst
# spends its CPU in C2 compiling the purchase path (docs/performance.md, "The JIT in a burst").
ENV JAVA_OPTS="-XX:MaxRAMPercentage=75 -XX:TieredStopAtLevel=1 ${JAVA_COLLECTOR}"
# (arguments after the image name reach the app: "$@")
ENTRYPOINT ["sh", "-c", "exec java $JAVA_OPTS -jar /app/app.jar \"$@\"", "app"]
