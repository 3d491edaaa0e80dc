{{/* The release's name, with the chart's unless it has it already; room left for suffixes. */}}
{{- define "flashsale.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* Labels selecting one component (api or worker) of this release: (list $ "api"). */}}
{{- define "flashsale.selectorLabels" -}}
app.kubernetes.io/name: {{ (index . 0).Chart.Name }}
app.kubernetes.io/instance: {{ (index . 0).Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end -}}

{{- define "flashsale.labels" -}}
{{ include "flashsale.selectorLabels" . }}
app.kubernetes.io/managed-by: {{ (index . 0).Release.Service }}
helm.sh/chart: {{ printf "%s-%s" (index . 0).Chart.Name (index . 0).Chart.Version }}
{{- end -}}

{{/* The worker build's labels: the component's and its build id. (list $ build) */}}
{{- define "flashsale.workerSelectorLabels" -}}
{{ include "flashsale.selectorLabels" (list (index . 0) "worker") }}
worker-build-id: {{ (index . 1).id | quote }}
{{- end -}}

{{/* One worker build's object name: the build id in it, so builds run side by side. (list $ build) */}}
{{- define "flashsale.workerName" -}}
{{- $build := index . 1 -}}
{{- if not (regexMatch "^[a-z0-9]([-a-z0-9.]{0,61}[a-z0-9])?$" ($build.id | toString)) -}}
{{- fail (printf "worker.builds: build id %q must be lower-case letters, digits, '-' and '.', at most 63, as Kubernetes names and labels need" ($build.id | toString)) -}}
{{- end -}}
{{- $name := printf "%s-worker-%s" (include "flashsale.fullname" (index . 0)) ($build.id | toString) -}}
{{- if gt (len $name) 54 -}}
{{- fail (printf "worker.builds: %q is longer than 54 characters, KEDA's limit for a ScaledObject (its HPA is keda-hpa-<name>); use a shorter build id or release name" $name) -}}
{{- end -}}
{{- $name -}}
{{- end -}}

{{/* A variable from a key of an existing Secret: (list $ "FLASHSALE_JWT_SECRET" "jwt") */}}
{{- define "flashsale.secretEnv" -}}
{{- $secret := index (index . 0).Values.secrets (index . 2) -}}
- name: {{ index . 1 }}
  valueFrom:
    secretKeyRef:
      name: {{ required (printf "secrets.%s.name: the name of an existing Secret holding %s (key secrets.%s.key); the chart renders no secret" (index . 2) (index . 1) (index . 2)) $secret.name }}
      key: {{ $secret.key }}
{{- end -}}

{{/* What the api and the worker share, as docker-compose.yml's x-app-environment gives it. */}}
{{- define "flashsale.appEnv" -}}
{{- $redis := .Values.redis -}}
{{- if and $redis.sentinel.master $redis.cluster.nodes -}}
{{- fail "redis: set sentinel.master or cluster.nodes, not both" -}}
{{- end -}}
{{- if and $redis.sentinel.master (not $redis.sentinel.nodes) -}}
{{- fail "redis.sentinel.master needs redis.sentinel.nodes (host:port of each sentinel)" -}}
{{- end -}}
{{- $url := urlParse $redis.url -}}
- name: SPRING_PROFILES_ACTIVE
  value: prod
- name: MYSQL_URL
  value: {{ .Values.mysql.url | quote }}
- name: MYSQL_USER
  value: {{ .Values.mysql.user | quote }}
{{ include "flashsale.secretEnv" (list . "MYSQL_PASSWORD" "mysql") }}
{{ include "flashsale.secretEnv" (list . "REDIS_PASSWORD" "redis") }}
# Kubernetes puts the variable above into $(REDIS_PASSWORD)
- name: REDIS_URL
  value: {{ printf "%s://:$(REDIS_PASSWORD)@%s" $url.scheme $url.host | quote }}
{{- if $redis.sentinel.master }}
- name: REDIS_SENTINEL_MASTER
  value: {{ $redis.sentinel.master | quote }}
- name: REDIS_SENTINEL_NODES
  value: {{ join "," $redis.sentinel.nodes | quote }}
- name: FLASHSALE_REDIS_REPLICATION_REPLICAS
  value: {{ $redis.sentinel.replicationReplicas | quote }}
{{- end }}
{{- if $redis.cluster.nodes }}
- name: REDIS_CLUSTER_NODES
  value: {{ join "," $redis.cluster.nodes | quote }}
{{- end }}
- name: TEMPORAL_ADDRESS
  value: {{ .Values.temporal.address | quote }}
- name: TEMPORAL_NAMESPACE
  value: {{ .Values.temporal.namespace | quote }}
{{- if .Values.tracing.otlpEndpoint }}
- name: MANAGEMENT_OTLP_TRACING_ENDPOINT
  value: {{ .Values.tracing.otlpEndpoint | quote }}
{{- end }}
- name: MANAGEMENT_TRACING_SAMPLING_PROBABILITY
  value: {{ .Values.tracing.samplingProbability | quote }}
{{- end -}}

{{/* Probes on the actuator's groups: readiness is UP once warmed up and connected. (port) */}}
{{- define "flashsale.probes" -}}
startupProbe:
  httpGet:
    path: /actuator/health/liveness
    port: {{ . }}
  periodSeconds: 5
  failureThreshold: 60
livenessProbe:
  httpGet:
    path: /actuator/health/liveness
    port: {{ . }}
  periodSeconds: 10
  failureThreshold: 3
readinessProbe:
  httpGet:
    path: /actuator/health/readiness
    port: {{ . }}
  periodSeconds: 5
  failureThreshold: 2
{{- end -}}

{{/* The image runs as its own user flashsale (uid 10001, the Dockerfile's); Tomcat writes to /tmp only. */}}
{{- define "flashsale.containerSecurity" -}}
securityContext:
  runAsNonRoot: true
  runAsUser: 10001
  allowPrivilegeEscalation: false
  readOnlyRootFilesystem: true
  capabilities:
    drop: ["ALL"]
volumeMounts:
  - name: tmp
    mountPath: /tmp
{{- end -}}
