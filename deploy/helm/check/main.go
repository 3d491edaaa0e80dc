// Command check reads a rendered chart (the output of helm template) on its standard input and
// decodes every object in it strictly into its Kubernetes API type, as an API server would
// before it stores it: an unknown field, a duplicate field, a value of the wrong type, or a kind
// it does not know fails the object. It prints one line per object and exits 1 when any failed.
//
// Known kinds: core/v1, apps/v1, policy/v1 and autoscaling/v2 from k8s.io/api; the Prometheus
// operator's monitoring.coreos.com/v1 and KEDA's keda.sh/v1alpha1, from their own Go types.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	keda "github.com/kedacore/keda/v2/apis/keda/v1alpha1"
	monitoring "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	apps "k8s.io/api/apps/v1"
	autoscaling "k8s.io/api/autoscaling/v2"
	core "k8s.io/api/core/v1"
	policy "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/util/yaml"
)

func main() {
	failed, err := check(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if failed {
		os.Exit(1)
	}
}

// check decodes each document of in and reports it on out; failed is true when one did not decode.
func check(in io.Reader, out io.Writer) (failed bool, err error) {
	decoder, err := strictDecoder()
	if err != nil {
		return false, err
	}
	documents := yaml.NewYAMLReader(bufio.NewReader(in))
	objects := 0
	for {
		document, err := documents.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return false, err
		}
		if empty(document) {
			continue
		}
		objects++
		object, kind, err := decoder.Decode(document, nil, nil)
		if err != nil {
			failed = true
			fmt.Fprintf(out, "FAIL %s: %s\n", source(document, objects), err)
			continue
		}
		name, _ := meta.NewAccessor().Name(object)
		fmt.Fprintf(out, "ok %s %s\n", kind.GroupKind(), name)
	}
	if objects == 0 {
		return false, errors.New("no object on the standard input")
	}
	return failed, nil
}

// strictDecoder turns YAML into the registered types, refusing unknown and duplicate fields.
func strictDecoder() (runtime.Decoder, error) {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		core.AddToScheme,
		apps.AddToScheme,
		policy.AddToScheme,
		autoscaling.AddToScheme,
		monitoring.AddToScheme,
		keda.AddToScheme,
	} {
		if err := add(scheme); err != nil {
			return nil, err
		}
	}
	options := json.SerializerOptions{Yaml: true, Strict: true}
	return json.NewSerializerWithOptions(json.DefaultMetaFactory, scheme, scheme, options), nil
}

// source is the template helm template names in a comment above the object, else its position.
func source(document []byte, position int) string {
	for _, line := range bytes.Split(document, []byte("\n")) {
		if name, found := bytes.CutPrefix(bytes.TrimSpace(line), []byte("# Source: ")); found {
			return string(name)
		}
	}
	return fmt.Sprintf("object %d", position)
}

// empty is true for a document of comments and blank lines only (helm template writes some).
func empty(document []byte) bool {
	for _, line := range bytes.Split(document, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) > 0 && line[0] != '#' && !bytes.Equal(line, []byte("---")) {
			return false
		}
	}
	return true
}
