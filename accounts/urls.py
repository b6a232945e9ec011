"""Sign-in pages (Django's auth views, our templates) and the connect-agent page."""

from django.contrib.auth import views as auth_views
from django.urls import URLPattern, URLResolver, path
from django.views.generic import RedirectView

from accounts import signin, views

urlpatterns: list[URLPattern | URLResolver] = [
    # The site root has nothing of its own: send people to their sources (or to sign in).
    path("", RedirectView.as_view(url="/sources", permanent=False), name="home"),
    path("login/", signin.SignInView.as_view(), name="login"),
    path("logout/", views.SignOutView.as_view(), name="logout"),
    path("password/change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password/change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    # A forgotten password: an e-mail with a one-time link (docs/owners.md).
    path("password/reset/", signin.PasswordResetView.as_view(), name="password_reset"),
    path(
        "password/reset/sent/",
        signin.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/complete/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("connect-agent", views.connect_agent, name="connect_agent"),
    path("connect-agent/keys", views.create_key, name="create_key"),
    path("connect-agent/keys/<int:key_id>/revoke", views.revoke_key, name="revoke_key"),
    path(
        "connect-agent/agents/<int:application_id>/revoke",
        views.revoke_agent,
        name="revoke_agent",
    ),
]
