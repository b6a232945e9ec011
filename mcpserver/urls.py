"""The OAuth endpoints the code flow needs, and nothing else (mcpserver/oauth.py).

Mounted at `/oauth/` under the toolkit's namespace, which its views reverse. Not mounted:
introspection (any client could read another's token and its owner), the device flow, the
application and authorized-token management pages, and OpenID Connect.
"""

from django.urls import URLPattern, path
from oauth2_provider import views

from mcpserver import oauth

app_name = "oauth2_provider"

urlpatterns: list[URLPattern] = [
    path("authorize/", views.AuthorizationView.as_view(), name="authorize"),
    path("token/", oauth.CodeFlowTokenView.as_view(), name="token"),
    path("revoke_token/", views.RevokeTokenView.as_view(), name="revoke-token"),
    path("register/", oauth.RegistrationView.as_view(), name="dcr-register"),
    path(
        "register/<str:client_id>/",
        oauth.RegistrationManagementView.as_view(),
        name="dcr-register-management",
    ),
]
