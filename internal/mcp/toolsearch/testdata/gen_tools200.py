# Writes tools200.json, the 200-tool catalogue the toolsearch tests rank
# (SOURCES.md says where each server's tools come from). Regenerate with
#   python3 testdata/gen_tools200.py testdata/tools200.json
import json, sys
T = {"s":"string","n":"number","i":"integer","b":"boolean","o":"object"}
def prop(t, d):
    if t == "a": p = {"type":"array","items":{"type":"string"}}
    elif t == "A": p = {"type":"array","items":{"type":"object"}}
    else: p = {"type": T[t]}
    if d: p["description"] = d
    return p
def P(spec):
    # spec: "name:type:description" ; a leading '?' on the name marks optional
    props, req = {}, []
    for s in spec:
        n, t, d = s.split(":", 2)
        opt = n.startswith("?")
        n = n.lstrip("?")
        props[n] = prop(t, d)
        if not opt: req.append(n)
    sch = {"type":"object","properties":props}
    if req: sch["required"] = req
    return sch
OWN = "owner:s:Repository owner (username or organization)"
REPO = "repo:s:Repository name"
PAGE = ["?page:n:Page number for pagination", "?per_page:n:Results per page (max 100)"]
PULL = "pull_number:n:Pull request number"
RUN = "run_id:n:The unique identifier of the workflow run"
S = []
def add(server, tool, desc, ro, spec):
    S.append({"server":server,"tool":tool,"description":desc,"readOnly":ro,"schema":P(spec)})

g = "github"
add(g,"create_or_update_file","Create or update a single file in a GitHub repository",False,[OWN,REPO,"path:s:Path where to create/update the file","content:s:Content of the file","message:s:Commit message","branch:s:Branch to create/update the file in","?sha:s:SHA of the file being replaced (for updates)"])
add(g,"push_files","Push multiple files to a GitHub repository in a single commit",False,[OWN,REPO,"branch:s:Branch to push to","files:A:Files to push, each with path and content","message:s:Commit message"])
add(g,"search_repositories","Search for GitHub repositories",True,["query:s:Search query"]+PAGE)
add(g,"create_repository","Create a new GitHub repository in your account",False,["name:s:Repository name","?description:s:Repository description","?private:b:Whether the repository should be private","?autoInit:b:Initialize with README.md"])
add(g,"get_file_contents","Get the contents of a file or directory from a GitHub repository",True,[OWN,REPO,"path:s:Path to file/directory","?branch:s:Branch to get contents from"])
add(g,"create_issue","Create a new issue in a GitHub repository",False,[OWN,REPO,"title:s:Issue title","?body:s:Issue description","?assignees:a:Usernames to assign","?labels:a:Labels to add","?milestone:n:Milestone number"])
add(g,"create_pull_request","Create a new pull request in a GitHub repository",False,[OWN,REPO,"title:s:Pull request title","?body:s:Pull request description","head:s:The name of the branch where your changes are implemented","base:s:The name of the branch you want the changes pulled into","?draft:b:Whether to create the pull request as a draft","?maintainer_can_modify:b:Whether maintainers can modify the pull request"])
add(g,"fork_repository","Fork a GitHub repository to your account or specified organization",False,[OWN,REPO,"?organization:s:Optional: organization to fork to (defaults to your personal account)"])
add(g,"create_branch","Create a new branch in a GitHub repository",False,[OWN,REPO,"branch:s:Name for the new branch","?from_branch:s:Optional: source branch to create from (defaults to the repository's default branch)"])
add(g,"list_issues","List issues in a GitHub repository with filtering options",True,[OWN,REPO,"?state:s:Filter by state ('open', 'closed', 'all')","?labels:a:Filter by labels","?sort:s:Sort by ('created', 'updated', 'comments')","?direction:s:Sort direction ('asc', 'desc')","?since:s:Filter by date (ISO 8601 timestamp)"]+PAGE)
add(g,"update_issue","Update an existing issue in a GitHub repository",False,[OWN,REPO,"issue_number:n:Issue number to update","?title:s:New title","?body:s:New description","?state:s:New state ('open' or 'closed')","?labels:a:New labels","?assignees:a:New assignees","?milestone:n:New milestone number"])
add(g,"add_issue_comment","Add a comment to an existing issue",False,[OWN,REPO,"issue_number:n:Issue number to comment on","body:s:Comment text"])
add(g,"search_code","Search for code across GitHub repositories",True,["q:s:Search query using GitHub code search syntax","?sort:s:Sort field ('indexed' only)","?order:s:Sort order ('asc' or 'desc')"]+PAGE)
add(g,"search_issues","Search for issues and pull requests across GitHub repositories",True,["q:s:Search query using GitHub issues search syntax","?sort:s:Sort field (comments, reactions, created, etc.)","?order:s:Sort order ('asc' or 'desc')"]+PAGE)
add(g,"search_users","Search for users on GitHub",True,["q:s:Search query using GitHub users search syntax","?sort:s:Sort field (followers, repositories, joined)","?order:s:Sort order ('asc' or 'desc')"]+PAGE)
add(g,"list_commits","Get list of commits of a branch in a GitHub repository",True,[OWN,REPO,"?sha:s:Branch name"]+PAGE)
add(g,"get_issue","Get details of a specific issue in a GitHub repository",True,[OWN,REPO,"issue_number:n:Issue number to retrieve"])
add(g,"get_pull_request","Get details of a specific pull request",True,[OWN,REPO,PULL])
add(g,"list_pull_requests","List and filter repository pull requests",True,[OWN,REPO,"?state:s:Filter by state ('open', 'closed', 'all')","?head:s:Filter by head user/org and branch","?base:s:Filter by base branch","?sort:s:Sort by ('created', 'updated', 'popularity', 'long-running')","?direction:s:Sort direction ('asc', 'desc')"]+PAGE)
add(g,"create_pull_request_review","Create a review on a pull request",False,[OWN,REPO,PULL,"body:s:The body text of the review","event:s:The review action to perform ('APPROVE', 'REQUEST_CHANGES', 'COMMENT')","?commit_id:s:The SHA of the commit that needs a review","?comments:A:Line-specific comments, each with path, position and body"])
add(g,"merge_pull_request","Merge a pull request",False,[OWN,REPO,PULL,"?commit_title:s:Title for the automatic commit message","?commit_message:s:Extra detail to append to automatic commit message","?merge_method:s:Merge method to use ('merge', 'squash', 'rebase')"])
add(g,"get_pull_request_files","Get the list of files changed in a pull request",True,[OWN,REPO,PULL])
add(g,"get_pull_request_status","Get the combined status of all status checks for a pull request",True,[OWN,REPO,PULL])
add(g,"update_pull_request_branch","Update a pull request branch with the latest changes from the base branch",False,[OWN,REPO,PULL,"?expected_head_sha:s:The expected SHA of the pull request's HEAD ref"])
add(g,"get_pull_request_comments","Get the review comments on a pull request",True,[OWN,REPO,PULL])
add(g,"get_pull_request_reviews","Get the reviews on a pull request",True,[OWN,REPO,PULL])
add(g,"list_workflows","List GitHub Actions workflows in a repository",True,[OWN,REPO]+PAGE)
add(g,"get_workflow","Get a specific GitHub Actions workflow",True,[OWN,REPO,"workflow_id:s:Workflow ID or filename"])
add(g,"list_workflow_runs","List GitHub Actions workflow runs",True,[OWN,REPO,"?workflow_id:s:Filter by specific workflow ID or filename","?actor:s:Filter by user who triggered the workflow","?branch:s:Filter by branch name","?event:s:Filter by event type (push, pull_request, etc.)","?status:s:Filter by status"]+PAGE)
add(g,"get_workflow_run","Get a specific GitHub Actions workflow run",True,[OWN,REPO,RUN])
add(g,"list_workflow_jobs","List jobs for a workflow run",True,[OWN,REPO,RUN,"?filter:s:Filter jobs by completion status ('latest', 'all')"]+PAGE)
add(g,"get_workflow_job","Get a specific job from a workflow run",True,[OWN,REPO,"job_id:n:Job ID"])
add(g,"list_workflow_run_artifacts","List artifacts for a workflow run",True,[OWN,REPO,RUN]+PAGE)
add(g,"download_workflow_run_logs","Get download URL for workflow run logs",True,[OWN,REPO,RUN])
add(g,"get_job_logs","Get download URL for GitHub Actions job logs",True,[OWN,REPO,"job_id:n:Job ID","?failed_only:b:When true, gets logs for all failed jobs in run_id","?tail_lines:n:Number of lines to return from the end of the log"])
add(g,"get_recent_failed_runs","Get details of recent failed workflow runs with the specific failed jobs and steps",True,[OWN,REPO,"?limit:n:Maximum number of failed runs to return"])
add(g,"cancel_workflow_run","Cancel a GitHub Actions workflow run",False,[OWN,REPO,RUN])
add(g,"delete_workflow_run_logs","Delete the logs of a workflow run",False,[OWN,REPO,RUN])
add(g,"download_workflow_run_artifact","Get a download URL for a workflow artifact",True,[OWN,REPO,"artifact_id:n:The unique identifier of the artifact"])
add(g,"get_workflow_run_usage","Get the billable time of a workflow run",True,[OWN,REPO,RUN])
add(g,"rerun_workflow_run","Re-run an entire workflow run",False,[OWN,REPO,RUN])
add(g,"rerun_failed_jobs","Re-run only the failed jobs in a workflow run",False,[OWN,REPO,RUN])
add(g,"run_workflow","Run an Actions workflow by workflow ID or filename",False,[OWN,REPO,"workflow_id:s:The workflow ID (numeric) or workflow file name (e.g., main.yml, ci.yaml)","ref:s:The git reference for the workflow: a branch or tag name","?inputs:o:Inputs the workflow accepts"])
add(g,"get_me","Get details of the authenticated GitHub user",True,[])
add(g,"list_branches","List branches in a GitHub repository",True,[OWN,REPO]+PAGE)
add(g,"list_tags","List git tags in a GitHub repository",True,[OWN,REPO]+PAGE)
add(g,"get_commit","Get details for a commit from a GitHub repository",True,[OWN,REPO,"sha:s:Commit SHA, branch name, or tag name"])
add(g,"search_pull_requests","Search for pull requests in GitHub repositories using issues search syntax",True,["query:s:Search query using GitHub pull request search syntax","?sort:s:Sort field by number of matches of categories","?order:s:Sort order"]+PAGE)
add(g,"list_notifications","Lists all GitHub notifications for the authenticated user",True,["?filter:s:Filter notifications to 'default', 'include_read_notifications' or 'only_participating'","?since:s:Only show notifications updated after the given time (ISO 8601 format)"]+PAGE)
add(g,"dismiss_notification","Dismiss a notification by marking it as read or done",False,["threadID:s:The ID of the notification thread","state:s:The new state of the notification (read/done)"])
add(g,"list_code_scanning_alerts","List code scanning alerts in a GitHub repository",True,[OWN,REPO,"?state:s:Filter code scanning alerts by state ('open', 'closed', 'dismissed', 'fixed')","?severity:s:Filter code scanning alerts by severity","?ref:s:The Git reference for the results you want to list"])
add(g,"get_code_scanning_alert","Get details of a specific code scanning alert in a GitHub repository",True,[OWN,REPO,"alertNumber:n:The number of the alert"])
add(g,"list_secret_scanning_alerts","List secret scanning alerts in a GitHub repository",True,[OWN,REPO,"?state:s:Filter by state ('open', 'resolved')","?secret_type:s:A comma-separated list of secret types to return"])
add(g,"create_gist","Create a new gist",False,["files:o:Map of file names to their content","?description:s:Description of the gist","?public:b:Whether the gist is public"])
add(g,"list_gists","List gists for a user",True,["?username:s:GitHub username (omit for authenticated user's gists)","?since:s:Only gists updated after this time (ISO 8601 timestamp)"]+PAGE)
add(g,"list_releases","List releases in a GitHub repository",True,[OWN,REPO]+PAGE)
add(g,"get_latest_release","Get the latest release in a GitHub repository",True,[OWN,REPO])
add(g,"delete_file","Delete a file from a GitHub repository",False,[OWN,REPO,"path:s:Path to the file to delete","message:s:Commit message","branch:s:Branch to delete the file from"])

gl = "gitlab"
PID = "project_id:s:Project ID or URL-encoded path"
add(gl,"create_or_update_file","Create or update a single file in a GitLab project",False,[PID,"file_path:s:Path where to create/update the file","content:s:Content of the file","commit_message:s:Commit message","branch:s:Branch to create/update the file in","?previous_path:s:Path of the file to move/rename"])
add(gl,"push_files","Push multiple files to a GitLab project in a single commit",False,[PID,"branch:s:Branch to push to","files:A:Files to push, each with file_path and content","commit_message:s:Commit message"])
add(gl,"search_repositories","Search for GitLab projects",True,["search:s:Search query","?page:n:Page number for pagination","?per_page:n:Results per page (default 20)"])
add(gl,"create_repository","Create a new GitLab project",False,["name:s:Project name","?description:s:Project description","?visibility:s:'private', 'internal', or 'public'","?initialize_with_readme:b:Initialize with README"])
add(gl,"get_file_contents","Get the contents of a file or directory from a GitLab project",True,[PID,"file_path:s:Path to file/directory","?ref:s:Branch/tag/commit to get contents from"])
add(gl,"create_issue","Create a new issue in a GitLab project",False,[PID,"title:s:Issue title","?description:s:Issue description","?assignee_ids:a:User IDs to assign","?labels:a:Labels to add","?milestone_id:n:Milestone ID"])
add(gl,"create_merge_request","Create a new merge request in a GitLab project",False,[PID,"title:s:Merge request title","?description:s:Merge request description","source_branch:s:Branch containing changes","target_branch:s:Branch to merge into","?draft:b:Create as draft merge request","?allow_collaboration:b:Allow commits from upstream members"])
add(gl,"fork_repository","Fork a GitLab project to your account or specified namespace",False,[PID,"?namespace:s:Namespace to fork to"])
add(gl,"create_branch","Create a new branch in a GitLab project",False,[PID,"branch:s:Name for the new branch","?ref:s:Source branch/commit for the new branch"])
add(gl,"search_commits","Search for commits globally or in a specific GitLab project",True,["search:s:Search term for commits","?project_id:s:Project ID or URL-encoded path (if omitted, searches globally)","?page:n:Page number for pagination (default 1)","?per_page:n:Number of results per page (default 20)"])

fs = "filesystem"
add(fs,"read_text_file","Read the complete contents of a file from the file system as text",True,["path:s:","?head:n:If provided, returns only the first N lines of the file","?tail:n:If provided, returns only the last N lines of the file"])
add(fs,"read_media_file","Read an image or audio file; returns base64 data and the MIME type",True,["path:s:"])
add(fs,"read_multiple_files","Read the contents of multiple files simultaneously",True,["paths:a:Array of file paths to read"])
add(fs,"write_file","Create a new file or completely overwrite an existing file with new content",False,["path:s:File location","content:s:File content"])
add(fs,"edit_file","Make line-based edits to a text file; returns a git-style diff",False,["path:s:File to edit","edits:A:List of edit operations, each with oldText and newText","?dryRun:b:Preview changes using git-style diff format"])
add(fs,"create_directory","Create a new directory or ensure a directory exists",False,["path:s:"])
add(fs,"list_directory","Get a detailed listing of all files and directories in a specified path",True,["path:s:"])
add(fs,"list_directory_with_sizes","Get a detailed listing of all files and directories in a path, including sizes",True,["path:s:Directory path to list","?sortBy:s:Sort entries by name or size"])
add(fs,"move_file","Move or rename files and directories",False,["source:s:","destination:s:"])
add(fs,"search_files","Recursively search for files and directories matching a pattern",True,["path:s:Starting directory","pattern:s:Search pattern","?excludePatterns:a:Patterns to exclude"])
add(fs,"directory_tree","Get a recursive tree view of files and directories as a JSON structure",True,["path:s:Starting directory","?excludePatterns:a:Glob patterns to exclude"])
add(fs,"get_file_info","Retrieve detailed metadata about a file or directory (size, times, permissions)",True,["path:s:"])
add(fs,"list_allowed_directories","Returns the list of directories that this server is allowed to access",True,[])

gt = "git"
RP = "repo_path:s:Path to Git repository"
CL = "?context_lines:n:Number of context lines to show (default: 3)"
add(gt,"git_status","Shows the working tree status",True,[RP])
add(gt,"git_diff_unstaged","Shows changes in the working directory that are not yet staged",True,[RP,CL])
add(gt,"git_diff_staged","Shows changes that are staged for commit",True,[RP,CL])
add(gt,"git_diff","Shows differences between branches or commits",True,[RP,"target:s:Target branch or commit to compare with",CL])
add(gt,"git_commit","Records changes to the repository",False,[RP,"message:s:Commit message"])
add(gt,"git_commit_signed","Records changes to the repository and signs the commit with GPG",False,[RP,"message:s:Commit message","?key_id:s:GPG key ID to use for signing"])
add(gt,"git_add","Adds file contents to the staging area",False,[RP,"files:a:Array of file paths to stage"])
add(gt,"git_reset","Unstages all staged changes",False,[RP])
add(gt,"git_log","Shows the commit logs with optional date filtering",True,[RP,"?max_count:n:Maximum number of commits to show (default: 10)","?start_timestamp:s:Start timestamp for filtering commits","?end_timestamp:s:End timestamp for filtering commits"])
add(gt,"git_create_branch","Creates a new branch from an optional base branch",False,[RP,"branch_name:s:Name of the new branch","?base_branch:s:Base branch to create from (defaults to current branch)"])
add(gt,"git_checkout","Switches branches",False,[RP,"branch_name:s:Name of branch to checkout"])
add(gt,"git_show","Shows the contents of a commit",True,[RP,"revision:s:The revision (commit hash, branch name, tag) to show"])
add(gt,"git_branch","List Git branches",True,[RP,"branch_type:s:Whether to list local branches ('local'), remote branches ('remote') or all branches ('all')","?contains:s:The commit sha that branch should contain","?not_contains:s:The commit sha that branch should NOT contain"])

m = "memory"
add(m,"create_entities","Create multiple new entities in the knowledge graph",False,["entities:A:Entities, each with name, entityType and observations"])
add(m,"create_relations","Create multiple new relations between entities in the knowledge graph; relations should be in active voice",False,["relations:A:Relations, each with from, to and relationType"])
add(m,"add_observations","Add new observations to existing entities in the knowledge graph",False,["observations:A:Observations, each with entityName and contents"])
add(m,"delete_entities","Delete multiple entities and their associated relations from the knowledge graph",False,["entityNames:a:An array of entity names to delete"])
add(m,"delete_observations","Delete specific observations from entities in the knowledge graph",False,["deletions:A:Deletions, each with entityName and observations"])
add(m,"delete_relations","Delete multiple relations from the knowledge graph",False,["relations:A:Relations to delete, each with from, to and relationType"])
add(m,"read_graph","Read the entire knowledge graph",True,[])
add(m,"search_nodes","Search for nodes in the knowledge graph based on a query",True,["query:s:The search query to match against entity names, types, and observation content"])
add(m,"open_nodes","Open specific nodes in the knowledge graph by their names",True,["names:a:An array of entity names to retrieve"])

sl = "slack"
CH = "channel_id:s:The ID of the channel"
add(sl,"slack_list_channels","List public channels in the workspace with pagination",True,["?limit:n:Maximum number of channels to return (default 100, max 200)","?cursor:s:Pagination cursor for next page of results"])
add(sl,"slack_post_message","Post a new message to a Slack channel",False,["channel_id:s:The ID of the channel to post to","text:s:The message text to post"])
add(sl,"slack_reply_to_thread","Reply to a specific message thread in Slack",False,[CH,"thread_ts:s:The timestamp of the parent message","text:s:The reply text"])
add(sl,"slack_add_reaction","Add a reaction emoji to a message",False,[CH,"timestamp:s:The timestamp of the message to react to","reaction:s:The name of the emoji reaction (without colons)"])
add(sl,"slack_get_channel_history","Get recent messages from a channel",True,[CH,"?limit:n:Number of messages to retrieve (default 10)","?cursor:s:Pagination cursor","?latest:s:Only messages before this Unix timestamp","?oldest:s:Only messages after this Unix timestamp"])
add(sl,"slack_get_thread_replies","Get all replies in a message thread",True,[CH,"thread_ts:s:The timestamp of the parent message"])
add(sl,"slack_get_users","Get a list of all users in the workspace with their basic profile information",True,["?cursor:s:Pagination cursor for next page of results","?limit:n:Maximum number of users to return (default 100, max 200)"])
add(sl,"slack_get_user_profile","Get detailed profile information for a specific user",True,["user_id:s:The ID of the user"])

at = "atlassian"
IK = "issue_key:s:Jira issue key (e.g., 'PROJ-123')"
PK = "project_key:s:The project key (e.g., 'PROJ')"
BID = "board_id:s:The ID of the agile board"
SID = "sprint_id:s:The ID of the sprint"
LIM = "?limit:i:Maximum number of results (1-50)"
add(at,"jira_get_issue","Get details of a specific Jira issue including its epic links and relationship information",True,[IK,"?fields:s:Comma-separated list of fields to return","?expand:s:Fields to expand, e.g. 'renderedFields', 'transitions', 'changelog'","?comment_limit:i:Maximum number of comments to include"])
add(at,"jira_search","Search Jira issues using JQL (Jira Query Language)",True,["jql:s:JQL query string, e.g. 'project = PROJ AND status = \"In Progress\"'","?fields:s:Comma-separated fields to return",LIM,"?start_at:i:Starting index for pagination"])
add(at,"jira_get_all_projects","Get all Jira projects accessible to the current user",True,["?include_archived:b:Whether to include archived projects"])
add(at,"jira_get_project_issues","Get all issues for a specific Jira project",True,[PK,LIM,"?start_at:i:Starting index for pagination"])
add(at,"jira_get_worklog","Get worklog entries for a Jira issue",True,[IK])
add(at,"jira_get_transitions","Get available status transitions for a Jira issue",True,[IK])
add(at,"jira_search_fields","Search Jira fields by keyword with fuzzy match",True,["?keyword:s:Keyword for fuzzy search; empty lists the first fields",LIM])
add(at,"jira_get_agile_boards","Get Jira agile boards by name, project key, or type",True,["?board_name:s:Board name (fuzzy search)","?project_key:s:Jira project key","?board_type:s:Board type ('scrum' or 'kanban')",LIM])
add(at,"jira_get_board_issues","Get all issues linked to a specific board filtered by JQL",True,[BID,"jql:s:JQL query string",LIM])
add(at,"jira_get_sprints_from_board","Get Jira sprints from a board by state",True,[BID,"?state:s:Sprint state ('active', 'future', 'closed')",LIM])
add(at,"jira_get_sprint_issues","Get Jira issues from a sprint",True,[SID,"?fields:s:Comma-separated fields to return",LIM])
add(at,"jira_get_issue_link_types","Get all available issue link types",True,[])
add(at,"jira_batch_get_changelogs","Get changelogs for multiple Jira issues (Cloud only)",True,["issue_ids_or_keys:a:Issue IDs or keys","?fields:a:Filter changelogs by fields, e.g. ['status', 'assignee']",LIM])
add(at,"jira_get_user_profile","Retrieve the profile of a Jira user",True,["user_identifier:s:Account ID, email address or username"])
add(at,"jira_download_attachments","Download attachments from a Jira issue",True,[IK,"target_dir:s:Directory where attachments should be saved"])
add(at,"jira_get_project_versions","Get all fix versions for a specific Jira project",True,[PK])
add(at,"jira_create_issue","Create a new Jira issue with optional epic link or parent for subtasks",False,[PK,"summary:s:Summary (title) of the issue","issue_type:s:Issue type (e.g. 'Task', 'Bug', 'Story', 'Epic', 'Subtask')","?assignee:s:Assignee's user identifier","?description:s:Issue description","?components:s:Comma-separated list of component names","?additional_fields:o:Additional fields, e.g. priority, labels, parent"])
add(at,"jira_update_issue","Update an existing Jira issue including changing status, adding epic links, updating fields",False,[IK,"fields:o:Fields to update, e.g. summary, assignee, labels","?additional_fields:o:Custom fields to update","?attachments:s:Comma-separated file paths to attach"])
add(at,"jira_delete_issue","Delete an existing Jira issue",False,[IK])
add(at,"jira_batch_create_issues","Create multiple Jira issues in a batch",False,["issues:s:JSON array of issue objects with project_key, summary and issue_type","?validate_only:b:Only validate the issues without creating them"])
add(at,"jira_add_comment","Add a comment to a Jira issue",False,[IK,"comment:s:Comment text in Markdown format"])
add(at,"jira_transition_issue","Transition a Jira issue to a new status",False,[IK,"transition_id:s:ID of the transition to perform","?fields:o:Fields to update during the transition","?comment:s:Comment to add during the transition"])
add(at,"jira_add_worklog","Add a worklog entry to a Jira issue",False,[IK,"time_spent:s:Time spent in Jira format, e.g. '1h 30m', '1d'","?comment:s:Optional comment for the worklog","?started:s:Start time in ISO format"])
add(at,"jira_link_to_epic","Link an existing issue to an epic",False,[IK,"epic_key:s:The key of the epic to link to"])
add(at,"jira_create_sprint","Create a Jira sprint for a board",False,[BID,"sprint_name:s:Name of the sprint","start_date:s:Start time for sprint (ISO 8601 format)","end_date:s:End time for sprint (ISO 8601 format)","?goal:s:Goal of the sprint"])
add(at,"jira_update_sprint","Update a Jira sprint",False,[SID,"?sprint_name:s:New name for the sprint","?state:s:New state ('future', 'active', 'closed')","?start_date:s:New start date","?end_date:s:New end date","?goal:s:New goal"])
add(at,"jira_create_issue_link","Create a link between two Jira issues",False,["link_type:s:The type of link to create (e.g. 'Duplicate', 'Blocks')","inward_issue_key:s:The key of the inward issue","outward_issue_key:s:The key of the outward issue","?comment:s:Comment to add to the link"])
add(at,"jira_remove_issue_link","Remove a link between two Jira issues",False,["link_id:s:The ID of the link to remove"])
add(at,"jira_create_version","Create a new fix version in a Jira project",False,[PK,"name:s:Name of the version","?start_date:s:Start date (YYYY-MM-DD)","?release_date:s:Release date (YYYY-MM-DD)","?description:s:Description of the version"])
add(at,"jira_batch_create_versions","Batch create multiple versions in a Jira project",False,[PK,"versions:s:JSON array of version objects with name and optional dates"])
PID2 = "page_id:s:Confluence page ID (numeric)"
add(at,"confluence_search","Search Confluence content using simple terms or CQL",True,["query:s:Search query: simple text or a CQL query string",LIM,"?spaces_filter:s:Comma-separated list of space keys to filter results by"])
add(at,"confluence_get_page","Get content of a specific Confluence page by ID, or by title and space key",True,["?page_id:s:Confluence page ID","?title:s:The exact title of the page","?space_key:s:The key of the space","?include_metadata:b:Whether to include page metadata such as labels","?convert_to_markdown:b:Whether to convert the page to markdown"])
add(at,"confluence_get_page_children","Get child pages of a specific Confluence page",True,["parent_id:s:The ID of the parent page",LIM,"?include_content:b:Whether to include the page content"])
add(at,"confluence_get_comments","Get comments for a specific Confluence page",True,[PID2])
add(at,"confluence_get_labels","Get labels for Confluence content (pages, blog posts, attachments)",True,[PID2])
add(at,"confluence_search_user","Search Confluence users using CQL",True,["query:s:Search query: a CQL query string for user search",LIM])
add(at,"confluence_create_page","Create a new Confluence page",False,["space_key:s:The key of the space to create the page in","title:s:The title of the page","content:s:The content of the page in Markdown format","?parent_id:s:Optional parent page ID"])
add(at,"confluence_update_page","Update an existing Confluence page",False,[PID2,"title:s:The new title of the page","content:s:The new content of the page in Markdown format","?is_minor_edit:b:Whether this is a minor edit","?version_comment:s:Optional comment for this version"])
add(at,"confluence_delete_page","Delete an existing Confluence page",False,["page_id:s:The ID of the page to delete"])
add(at,"confluence_add_label","Add a label to Confluence content (pages, blog posts, attachments)",False,[PID2,"name:s:The name of the label"])
add(at,"confluence_add_comment","Add a comment to a Confluence page",False,[PID2,"content:s:The comment content in Markdown format"])

gm = "google-maps"
add(gm,"maps_geocode","Convert an address into geographic coordinates",True,["address:s:The address to geocode"])
add(gm,"maps_reverse_geocode","Convert coordinates into an address",True,["latitude:n:Latitude coordinate","longitude:n:Longitude coordinate"])
add(gm,"maps_search_places","Search for places using the Google Places API",True,["query:s:Search query","?location:o:Optional center point for the search, with latitude and longitude","?radius:n:Search radius in meters (max 50000)"])
add(gm,"maps_place_details","Get detailed information about a specific place",True,["place_id:s:The place ID to get details for"])
add(gm,"maps_distance_matrix","Calculate travel distance and time for multiple origins and destinations",True,["origins:a:Array of origin addresses or coordinates","destinations:a:Array of destination addresses or coordinates","?mode:s:Travel mode (driving, walking, bicycling, transit)"])
add(gm,"maps_elevation","Get elevation data for locations on the earth",True,["locations:A:Array of locations, each with latitude and longitude"])
add(gm,"maps_directions","Get directions between two points",True,["origin:s:Starting point address or coordinates","destination:s:Ending point address or coordinates","?mode:s:Travel mode (driving, walking, bicycling, transit)"])

pp = "puppeteer"
add(pp,"puppeteer_navigate","Navigate the browser to a URL",False,["url:s:URL to navigate to"])
add(pp,"puppeteer_screenshot","Take a screenshot of the current page or a specific element",True,["name:s:Name for the screenshot","?selector:s:CSS selector for element to screenshot","?width:n:Width in pixels (default: 800)","?height:n:Height in pixels (default: 600)"])
add(pp,"puppeteer_click","Click an element on the page",False,["selector:s:CSS selector for element to click"])
add(pp,"puppeteer_hover","Hover an element on the page",False,["selector:s:CSS selector for element to hover"])
add(pp,"puppeteer_fill","Fill out an input field",False,["selector:s:CSS selector for input field","value:s:Value to fill"])
add(pp,"puppeteer_select","Select an element on the page with a Select tag",False,["selector:s:CSS selector for element to select","value:s:Value to select"])
add(pp,"puppeteer_evaluate","Execute JavaScript in the browser console",False,["script:s:JavaScript code to execute"])

add("brave-search","brave_web_search","Performs a web search using the Brave Search API, for general queries, news, articles and online content",True,["query:s:Search query (max 400 chars, 50 words)","?count:n:Number of results (1-20, default 10)","?offset:n:Pagination offset (max 9, default 0)"])
add("brave-search","brave_local_search","Searches for local businesses and places using Brave's Local Search API",True,["query:s:Local search query (e.g. 'pizza near Central Park')","?count:n:Number of results (1-20, default 5)"])
add("fetch","fetch","Fetches a URL from the internet and extracts its contents as markdown",True,["url:s:URL to fetch","?max_length:i:Maximum number of characters to return (default 5000)","?start_index:i:Start content from this character index (default 0)","?raw:b:Get raw content without markdown conversion"])
add("time","get_current_time","Get the current time in a specific timezone",True,["timezone:s:IANA timezone name (e.g., 'America/New_York', 'Europe/London')"])
add("time","convert_time","Convert time between timezones",True,["source_timezone:s:Source IANA timezone name","time:s:Time to convert in 24-hour format (HH:MM)","target_timezone:s:Target IANA timezone name"])
sq = "sqlite"
add(sq,"read_query","Execute a SELECT query on the SQLite database",True,["query:s:SELECT SQL query to execute"])
add(sq,"write_query","Execute an INSERT, UPDATE, or DELETE query on the SQLite database",False,["query:s:SQL query to execute"])
add(sq,"create_table","Create a new table in the SQLite database",False,["query:s:CREATE TABLE SQL statement"])
add(sq,"list_tables","List all tables in the SQLite database",True,[])
add(sq,"describe_table","Get the schema information for a specific table",True,["table_name:s:Name of the table to describe"])
add(sq,"append_insight","Add a business insight to the memo",False,["insight:s:Business insight discovered from data analysis"])
add("postgres","query","Run a read-only SQL query against the PostgreSQL database",True,["sql:s:The SQL query to run"])
rd = "redis"
add(rd,"set","Set a Redis key-value pair with optional expiration",False,["key:s:Redis key","value:s:Value to store","?expireSeconds:n:Optional expiration time in seconds"])
add(rd,"get","Get a value from Redis by key",True,["key:s:Redis key to retrieve"])
add(rd,"delete","Delete one or more keys from Redis",False,["key:a:Key or array of keys to delete"])
add(rd,"list","List Redis keys matching a pattern",True,["?pattern:s:Pattern to match keys (default: *)"])
add("sentry","get_sentry_issue","Retrieve and analyze a Sentry issue by ID or URL, with its stacktrace",True,["issue_id_or_url:s:Sentry issue ID or URL to analyze"])
ev = "everything"
add(ev,"echo","Echoes back the input",True,["message:s:Message to echo"])
add(ev,"add","Adds two numbers",True,["a:n:First number","b:n:Second number"])
add(ev,"longRunningOperation","Demonstrates a long running operation with progress updates",True,["?duration:n:Duration of the operation in seconds","?steps:n:Number of steps in the operation"])
add(ev,"printEnv","Prints all environment variables, helpful for debugging MCP server configuration",True,[])
add(ev,"sampleLLM","Samples from an LLM using the MCP sampling feature",True,["prompt:s:The prompt to send to the LLM","?maxTokens:n:Maximum number of tokens to generate"])
add(ev,"getTinyImage","Returns the MCP_TINY_IMAGE",True,[])
add(ev,"annotatedMessage","Demonstrates how annotations can be used to provide metadata about content",True,["messageType:s:Type of message to demonstrate different annotation patterns","?includeImage:b:Whether to include an example image"])
add(ev,"getResourceReference","Returns a resource reference that can be used by MCP clients",True,["resourceId:n:ID of the resource to reference (1-100)"])
add("gdrive","search","Search for files in Google Drive",True,["query:s:Search query"])
add("aws-kb-retrieval","retrieve_from_aws_kb","Perform retrieval operations using the AWS Bedrock Knowledge Base",True,["query:s:The query to perform retrieval on","knowledgeBaseId:s:The ID of the AWS Knowledge Base","?n:n:Number of results to retrieve (default 3)"])
add("everart","generate_image","Generate images using EverArt models",False,["prompt:s:Text description of the desired image","?model:s:Model ID (5000:FLUX1.1, 9000:FLUX1.1-ultra, 6000:SD3.5, 7000:Recraft-Real, 8000:Recraft-Vector)","?image_count:n:Number of images to generate"])
add("sequential-thinking","sequentialthinking","A tool for dynamic and reflective problem-solving through a flexible series of thoughts that can revise earlier ones",True,["thought:s:Your current thinking step","nextThoughtNeeded:b:Whether another thought step is needed","thoughtNumber:i:Current thought number","totalThoughts:i:Estimated total thoughts needed","?isRevision:b:Whether this revises previous thinking","?revisesThought:i:Which thought is being reconsidered"])
li = "linear"
add(li,"linear_create_issue","Creates a new Linear issue with title, description, priority and team",False,["title:s:Issue title","teamId:s:Team ID","?description:s:Issue description (markdown supported)","?priority:n:Priority (0-4, 1 is urgent)","?status:s:Issue status"])
add(li,"linear_update_issue","Updates an existing Linear issue's properties",False,["id:s:Issue ID","?title:s:New title","?description:s:New description","?priority:n:New priority (0-4)","?status:s:New status"])
add(li,"linear_search_issues","Searches Linear issues using flexible criteria",True,["?query:s:Optional text to search in title and description","?teamId:s:Filter by team ID","?status:s:Filter by status name","?assigneeId:s:Filter by assignee's user ID","?labels:a:Filter by label names","?priority:n:Filter by priority","?limit:n:Max results to return (default: 10)"])
add(li,"linear_get_user_issues","Retrieves issues assigned to a user or the authenticated user",True,["?userId:s:Optional user ID (returns the authenticated user's issues if omitted)","?includeArchived:b:Include archived issues in results","?limit:n:Maximum number of issues to return (default: 50)"])
add(li,"linear_add_comment","Adds a comment to an existing Linear issue",False,["issueId:s:ID of the issue to comment on","body:s:Comment text in markdown format"])

names = [s["server"]+"/"+s["tool"] for s in S]
assert len(names) == len(set(names)), "duplicate"
print(len(S), file=sys.stderr)
out = json.dumps(S, indent=1, ensure_ascii=False)
open(sys.argv[1], "w").write(out + "\n")
