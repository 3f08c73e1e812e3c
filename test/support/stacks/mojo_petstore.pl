#!/usr/bin/perl
# Mojolicious::Lite 9 (Debian's libmojolicious-perl), written as Mojolicious's guides show:
# an `under` that checks the key, routes that render JSON, and not_found and exception
# templates replaced by Error bodies. Environment: PETSTORE_KEY, PORT; PETSTORE_FAULT=1
# trims the name as Perl code does (s/^\s+|\s+$//g): the created Category no longer holds
# the name that was sent, where 4.2/R1 wants it exactly.
# Run: perl mojo_petstore.pl daemon -l http://127.0.0.1:PORT
use Mojolicious::Lite -signatures;
use B ();

my $key   = $ENV{PETSTORE_KEY};
my $fault = ($ENV{PETSTORE_FAULT} // '') eq '1';
my @store;

sub error ($c, $status, $code, $message) {
  $c->render(json => {code => $code, message => $message, status => $status}, status => $status);
}

hook before_render => sub ($c, $args) {
  my $template = $args->{template} // '';
  return unless $template eq 'not_found' || $template eq 'exception';
  my $status = $template eq 'not_found' ? 404 : 500;
  @$args{qw(json status)} = ({code => $template, message => $template eq 'not_found' ? 'no such resource' : 'the server failed', status => $status}, $status);
};

under '/v1' => sub ($c) {
  my $header = $c->req->headers->authorization // '';
  my ($scheme, $token) = split / /, $header, 2;
  return 1 if lc($scheme // '') eq 'bearer' && defined $token && $token eq $key;
  $c->res->headers->www_authenticate('Bearer realm="petstore"' . ($header eq '' ? '' : ', error="invalid_token"'));
  error($c, 401, 'unauthorized', 'a valid API key is required');
  return undef;
};

get '/categories' => sub ($c) { $c->render(json => \@store) };

post '/categories' => sub ($c) {
  my $body = $c->req->json;
  return error($c, 400, 'invalid_body', 'name is required and must be a string')
    unless ref $body eq 'HASH' && exists $body->{name} && !ref $body->{name} && defined $body->{name} && B::svref_2object(\$body->{name})->FLAGS & B::SVp_POK;
  return error($c, 400, 'invalid_body', 'description must be a string')
    if exists $body->{description} && !(defined $body->{description} && !ref $body->{description} && B::svref_2object(\$body->{description})->FLAGS & B::SVp_POK);
  (my $name = $body->{name}) =~ s/^\s+|\s+$//g if $fault;
  my $category = {id => scalar(@store) + 1, name => $fault ? $name : $body->{name}};
  $category->{description} = $body->{description} if exists $body->{description};
  push @store, $category;
  $c->render(json => $category, status => 201);
};

get '/pets/:pet_id' => sub ($c) { error($c, 501, 'not_implemented', 'outside the categories interface') };
get '/store/orders' => sub ($c) { error($c, 501, 'not_implemented', 'outside the categories interface') };

app->log->level('fatal');
app->start;
