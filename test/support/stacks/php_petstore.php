<?php
// PHP's built-in web server (php -S, Debian's php-cli) with this file as its router, at its
// defaults: php://input, json_decode (depth 512), getallheaders(). Environment:
// PETSTORE_KEY; PETSTORE_FAULT=1 forgets http_response_code(201) on a create, as PHP code
// often does: the created Category answers 200, where 4.2/R1 wants 201.
// Run: php -S 127.0.0.1:PORT php_petstore.php
$key = getenv('PETSTORE_KEY');
$fault = getenv('PETSTORE_FAULT') === '1';
$storeFile = sys_get_temp_dir() . '/petstore-php-' . getmypid() . '-' . $_SERVER['SERVER_PORT'] . '.json';

function answer(int $status, $value): void {
    http_response_code($status);
    header('Content-Type: application/json');
    echo json_encode($value, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES | JSON_INVALID_UTF8_SUBSTITUTE);
}

function fail(int $status, string $code, string $message): void {
    answer($status, ['code' => $code, 'message' => $message, 'status' => $status]);
}

$headers = array_change_key_case(getallheaders(), CASE_LOWER);
$header = $headers['authorization'] ?? '';
[$scheme, $token] = array_pad(explode(' ', $header, 2), 2, null);
if (strtolower($scheme) !== 'bearer' || $token !== $key) {
    header('WWW-Authenticate: Bearer realm="petstore"' . ($header === '' ? '' : ', error="invalid_token"'));
    fail(401, 'unauthorized', 'a valid API key is required');
    return true;
}

$path = $_SERVER['REQUEST_URI'];
$method = $_SERVER['REQUEST_METHOD'];
// The built-in server runs one request at a time: the store is a file it reads and writes.
$store = is_file($storeFile) ? json_decode(file_get_contents($storeFile), true) : [];

if ($path === '/v1/categories' && $method === 'GET') {
    answer(200, $store);
} elseif ($path === '/v1/categories' && $method === 'POST') {
    $body = json_decode(file_get_contents('php://input'), true);
    if (!is_array($body) || array_is_list($body) && $body !== [] || !is_string($body['name'] ?? null)) {
        fail(400, 'invalid_body', 'name is required and must be a string');
    } elseif (array_key_exists('description', $body) && !is_string($body['description'])) {
        fail(400, 'invalid_body', 'description must be a string');
    } else {
        $category = ['id' => count($store) + 1, 'name' => $body['name']];
        if (array_key_exists('description', $body)) $category['description'] = $body['description'];
        $store[] = $category;
        file_put_contents($storeFile, json_encode($store, JSON_UNESCAPED_UNICODE));
        answer($fault ? 200 : 201, $category);
    }
} elseif (str_starts_with($path, '/v1/pets/') || $path === '/v1/store/orders') {
    fail(501, 'not_implemented', 'outside the categories interface');
} else {
    fail(404, 'not_found', 'no such resource');
}
return true;
