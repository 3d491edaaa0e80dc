# Image of one Spring Boot process of this repository: docker build --build-arg MODULE=api|worker .
ARG MODULE=api

FROM maven:3.9-eclipse-temurin-17 AS build
ARG MODULE
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/root/.m2 \
    mvn -B -q -pl "${MODULE}" -am -DskipTests package \
    && cp "${MODULE}"/target/"${MODULE}"-*-exec.jar /app.jar

FROM eclipse-temurin:17-jre
RUN apt-get update \
    && apt-get install -y --no-install-recommends curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 flashsale
COPY --from=build /app.jar /app/app.jar
USER flashsale
ENTRYPOINT ["java", "-jar", "/app/app.jar"]
