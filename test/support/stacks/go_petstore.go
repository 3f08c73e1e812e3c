// Go's net/http (Debian's golang-go) at its defaults: a ServeMux, encoding/json decoding
// into a struct whose optional fields are pointers, so that a missing name is told from an
// empty one. Environment: PETSTORE_KEY, PORT; PETSTORE_FAULT=1 takes a missing name for
// the zero value, as a struct of plain strings does: a body without name is created with
// name "" (201), where 4.2/R2 wants 400.
package main

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"sync"
)

var key = os.Getenv("PETSTORE_KEY")
var fault = os.Getenv("PETSTORE_FAULT") == "1"

type category struct {
	ID          int64   `json:"id"`
	Name        string  `json:"name"`
	Description *string `json:"description,omitempty"`
}

var (
	mu    sync.Mutex
	store = []category{}
)

func answer(w http.ResponseWriter, status int, value any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(value)
}

func fail(w http.ResponseWriter, status int, code, message string) {
	answer(w, status, map[string]any{"code": code, "message": message, "status": status})
}

func authenticated(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		header := r.Header.Get("Authorization")
		scheme, token, _ := strings.Cut(header, " ")
		if strings.EqualFold(scheme, "bearer") && token == key {
			next(w, r)
			return
		}
		challenge := `Bearer realm="petstore"`
		if header != "" {
			challenge += `, error="invalid_token"`
		}
		w.Header().Set("WWW-Authenticate", challenge)
		fail(w, http.StatusUnauthorized, "unauthorized", "a valid API key is required")
	}
}

func categories(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet:
		mu.Lock()
		defer mu.Unlock()
		answer(w, http.StatusOK, store)
	case http.MethodPost:
		// Members as raw JSON first: decoding null into a string or a pointer is no error in
		// encoding/json, and the spec's fields are strings, never null.
		var members map[string]json.RawMessage
		if err := json.NewDecoder(r.Body).Decode(&members); err != nil {
			fail(w, http.StatusBadRequest, "invalid_body", err.Error())
			return
		}
		var body struct {
			Name        *string
			Description *string
		}
		for field, target := range map[string]**string{"name": &body.Name, "description": &body.Description} {
			raw, present := members[field]
			if !present {
				continue
			}
			if string(raw) == "null" {
				fail(w, http.StatusBadRequest, "invalid_body", field+" must be a string")
				return
			}
			if err := json.Unmarshal(raw, target); err != nil {
				fail(w, http.StatusBadRequest, "invalid_body", field+" must be a string")
				return
			}
		}
		if body.Name == nil && fault {
			body.Name = new(string)
		}
		if body.Name == nil {
			fail(w, http.StatusBadRequest, "invalid_body", "name is required")
			return
		}
		mu.Lock()
		created := category{ID: int64(len(store) + 1), Name: *body.Name, Description: body.Description}
		store = append(store, created)
		mu.Unlock()
		answer(w, http.StatusCreated, created)
	default:
		w.Header().Set("Allow", "GET, POST")
		fail(w, http.StatusMethodNotAllowed, "method_not_allowed", "GET or POST")
	}
}

func notShown(w http.ResponseWriter, r *http.Request) {
	fail(w, http.StatusNotImplemented, "not_implemented", "outside the categories interface")
}

func main() {
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/categories", authenticated(categories))
	mux.HandleFunc("/v1/pets/", authenticated(notShown))
	mux.HandleFunc("/v1/store/orders", authenticated(notShown))
	mux.HandleFunc("/", authenticated(func(w http.ResponseWriter, r *http.Request) {
		fail(w, http.StatusNotFound, "not_found", "no such resource")
	}))
	http.ListenAndServe("127.0.0.1:"+os.Getenv("PORT"), mux)
}
